// A worker thread of IsolatedRenderer: renders one template per task with the same engine, and
// asks the main thread for partials, layouts, translations and data lookups over the task's port.
// Plain CommonJS on purpose: piscina loads it by path, both from the build and from sources.
'use strict';
const fs = require('node:fs');
const path = require('node:path');

// From sources (tests) the engine is TypeScript: compile it as it loads, with the project's SWC settings.
if (!fs.existsSync(path.join(__dirname, '..', 'template-engine.js'))) require('./typescript-hook');

const { TemplateEngine } = require('../template-engine');

const engines = new Map();

function engineFor(limits) {
  const key = JSON.stringify(limits);
  let engine = engines.get(key);
  if (!engine) engines.set(key, (engine = new TemplateEngine(limits)));
  return engine;
}

/** TemplateResources whose every method is a call to the main thread, which holds the real ones. */
function remoteResources(port, methods) {
  let next = 0;
  const pending = new Map();
  port.on('message', (message) => {
    const call = pending.get(message.id);
    if (!call) return;
    pending.delete(message.id);
    if (message.error !== undefined) call.reject(new Error(message.error));
    else call.resolve(message.value);
  });
  const resources = {};
  for (const method of methods) {
    resources[method] = (...args) =>
      new Promise((resolve, reject) => {
        const id = next++;
        pending.set(id, { resolve, reject });
        port.postMessage({ type: 'call', id, method, args });
      });
  }
  return resources;
}

module.exports = async function render(task) {
  const { port } = task;
  // The main thread's hard time limit counts from here, not from when the task was queued.
  port.postMessage({ type: 'started' });
  try {
    const engine = engineFor(task.limits);
    const resources = task.methods ? remoteResources(port, task.methods) : undefined;
    if (task.kind === 'email') return await engine.renderEmail(task.input, task.context, resources);
    return await engine.render(task.source, task.context, resources, task.options);
  } finally {
    port.close();
  }
};
