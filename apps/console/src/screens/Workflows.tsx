import {
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Code,
  Group,
  JsonInput,
  List,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Tabs,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useEffect, useMemo, useState } from 'react';
import YAML from 'yaml';
import { ApiError, entriesOf } from '../api';
import { EventList, LogPage } from '../events';
import { href } from '../router';
import { useConsole } from '../session';
import { Async, DataTable, ErrorAlert, Json, Status, time, useLoad } from '../ui';

type Step = { type: string; ref: string; [key: string]: unknown };

interface Workflow {
  key: string;
  name: string;
  description?: string;
  categories: string[];
  tags: string[];
  conditions?: unknown;
  settings: Record<string, unknown>;
  steps: Step[];
  trigger_data_json_schema?: unknown;
  trigger_frequency: string;
  goal_attachment?: unknown;
  active: boolean;
  valid: boolean;
  errors?: { field?: string | null; message: string }[];
  environment: string;
  sha: string;
  updated_at: string;
}

interface Channel {
  id: string;
  key: string;
  name: string;
  type: string;
  provider: string;
}

/** The fields of a workflow that are its data: what the editor shows and the upsert takes. */
const DATA_FIELDS = [
  'name',
  'description',
  'categories',
  'tags',
  'conditions',
  'settings',
  'steps',
  'trigger_data_json_schema',
  'trigger_frequency',
  'goal_attachment',
] as const;

function editable(workflow: Workflow): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const field of DATA_FIELDS) if (workflow[field] !== undefined) out[field] = workflow[field];
  return out;
}

export function WorkflowsScreen({ id }: { id?: string }) {
  return id ? <WorkflowDetail workflowKey={id} /> : <WorkflowList />;
}

function WorkflowList() {
  const { api, environment } = useConsole();
  const [search, setSearch] = useState('');
  const workflows = useLoad(
    (signal) => api.service<{ entries: Workflow[] }>('GET', '/v1/workflows', { query: { environment, limit: 100 }, signal }),
    [api, environment],
  );
  return (
    <Stack>
      <Title order={2}>Workflows</Title>
      <TextInput
        label="Search workflows"
        placeholder="key, name, category or tag"
        value={search}
        onChange={(e) => setSearch(e.currentTarget.value)}
        w={360}
      />
      <Async loaded={workflows} label="workflows">
        {(page) => {
          const q = search.trim().toLowerCase();
          const rows = entriesOf(page).filter(
            (w) => !q || [w.key, w.name, ...w.categories, ...w.tags].some((s) => s.toLowerCase().includes(q)),
          );
          return (
            <DataTable
              caption="Workflows"
              rows={rows}
              rowKey={(w) => w.key}
              empty={q ? 'No workflow matches.' : 'No workflows in this environment.'}
              columns={[
                { header: 'Key', cell: (w) => <Anchor href={href('workflows', w.key)}>{w.key}</Anchor> },
                { header: 'Name', cell: (w) => w.name },
                { header: 'Steps', cell: (w) => w.steps.length },
                { header: 'Active', cell: (w) => <Status value={w.active} /> },
                { header: 'Valid', cell: (w) => <Status value={w.valid} /> },
                { header: 'Categories', cell: (w) => w.categories.join(', ') || '—' },
                { header: 'Updated', cell: (w) => time(w.updated_at) },
              ]}
            />
          );
        }}
      </Async>
    </Stack>
  );
}

function WorkflowDetail({ workflowKey }: { workflowKey: string }) {
  const { api, environment } = useConsole();
  const workflow = useLoad(
    (signal) => api.service<Workflow>('GET', `/v1/workflows/${encodeURIComponent(workflowKey)}`, { query: { environment }, signal }),
    [api, environment, workflowKey],
  );
  const channels = useLoad(
    (signal) => api.service<{ entries: Channel[] }>('GET', '/v1/channels', { query: { limit: 100 }, signal }).then(entriesOf),
    [api],
  );
  const [draft, setDraft] = useState<string | null>(null);
  useEffect(() => {
    if (workflow.data && draft === null) setDraft(JSON.stringify(editable(workflow.data), null, 2));
  }, [workflow.data, draft]);
  const parsedDraft = useMemo(() => {
    try {
      return draft ? (JSON.parse(draft) as Record<string, unknown>) : null;
    } catch {
      return null;
    }
  }, [draft]);

  return (
    <Stack>
      <Group gap="xs">
        <Anchor href={href('workflows')}>Workflows</Anchor>
        <Text c="dimmed">/</Text>
        <Title order={2}>{workflowKey}</Title>
      </Group>
      <Async loaded={workflow} label="the workflow">
        {(w) => (
          <>
            <Header workflow={w} onChanged={workflow.reload} />
            <Tabs defaultValue="flow">
              <Tabs.List aria-label="Workflow views">
                <Tabs.Tab value="flow">Flow</Tabs.Tab>
                <Tabs.Tab value="edit">Edit</Tabs.Tab>
                <Tabs.Tab value="preview">Preview</Tabs.Tab>
                <Tabs.Tab value="changes">Changes</Tabs.Tab>
                <Tabs.Tab value="commits">Commits</Tabs.Tab>
                <Tabs.Tab value="history">History</Tabs.Tab>
              </Tabs.List>
              <Tabs.Panel value="flow" pt="md">
                <Flow steps={((parsedDraft?.steps as Step[] | undefined) ?? w.steps) || []} channels={channels.data ?? []} />
              </Tabs.Panel>
              <Tabs.Panel value="edit" pt="md">
                <Editor
                  workflowKey={workflowKey}
                  draft={draft ?? ''}
                  onDraft={setDraft}
                  onSaved={(saved) => {
                    setDraft(JSON.stringify(editable(saved), null, 2));
                    workflow.reload();
                  }}
                />
              </Tabs.Panel>
              <Tabs.Panel value="preview" pt="md">
                <Preview workflowKey={workflowKey} workflow={parsedDraft ?? editable(w)} channels={channels.data ?? []} />
              </Tabs.Panel>
              <Tabs.Panel value="changes" pt="md">
                <Changes workflowKey={workflowKey} draft={parsedDraft} />
              </Tabs.Panel>
              <Tabs.Panel value="commits" pt="md">
                <Commits workflowKey={workflowKey} />
              </Tabs.Panel>
              <Tabs.Panel value="history" pt="md">
                <StreamHistory stream={`workflow-${environment}-${workflowKey}`} />
              </Tabs.Panel>
            </Tabs>
          </>
        )}
      </Async>
    </Stack>
  );
}

function Header({ workflow, onChanged }: { workflow: Workflow; onChanged(): void }) {
  const { api, environment } = useConsole();
  const [error, setError] = useState<unknown>(null);
  const activate = async (status: boolean) => {
    setError(null);
    try {
      await api.service('PUT', `/v1/workflows/${encodeURIComponent(workflow.key)}/activate`, { query: { environment }, body: { status } });
      onChanged();
    } catch (e) {
      setError(e);
    }
  };
  return (
    <Stack gap="xs">
      <Group gap="lg">
        <Text fw={600}>{workflow.name}</Text>
        <Switch label="Active" checked={workflow.active} onChange={(e) => void activate(e.currentTarget.checked)} />
        <Group gap={4}>
          <Text size="sm">Valid</Text>
          <Status value={workflow.valid} />
        </Group>
        <Text size="sm" c="dimmed">
          sha <Code>{workflow.sha.slice(0, 12)}</Code> · updated {time(workflow.updated_at)}
        </Text>
        <Anchor size="sm" href={href('runs', undefined, { workflow: workflow.key })}>
          Runs of this workflow
        </Anchor>
      </Group>
      {workflow.description && <Text size="sm">{workflow.description}</Text>}
      {workflow.errors && workflow.errors.length > 0 && (
        <Alert color="yellow" title="This version cannot be activated or committed">
          <List size="sm">
            {workflow.errors.map((e, i) => (
              <List.Item key={i}>
                {e.field ? <Code>{e.field}</Code> : null} {e.message}
              </List.Item>
            ))}
          </List>
        </Alert>
      )}
      <ErrorAlert error={error} />
    </Stack>
  );
}

/** A one-line account of what a step does. */
function describe(step: Step, channels: Channel[]): string {
  const s = step.settings as Record<string, any> | undefined;
  switch (step.type) {
    case 'channel': {
      const channel = channels.find((c) => c.key === step.channel_key);
      const target = step.channel_key
        ? `channel ${String(step.channel_key)}${channel ? ` (${channel.type}, ${channel.provider})` : ''}`
        : `channel group ${String(step.channel_group_key)}`;
      const template = (step.template ?? {}) as Record<string, unknown>;
      const subject = template.subject ?? template.title ?? template.markdown_body ?? template.text_body ?? template.body;
      return `Send on ${target}${subject ? `: “${String(subject).slice(0, 80)}”` : ''}`;
    }
    case 'delay':
      return s?.delay_for ? `Wait ${s.delay_for.value} ${s.delay_for.unit}` : `Wait until ${String(s?.delay_until_field_path)}`;
    case 'batch':
      return `Batch ${s?.batch_window ? `for ${s.batch_window.value} ${s.batch_window.unit}` : ''}${s?.batch_key ? ` by ${s.batch_key}` : ''}`;
    case 'throttle':
      return `Throttle to ${s?.throttle_limit ?? 1} per ${s?.throttle_window?.value ?? ''} ${s?.throttle_window?.unit ?? ''}`;
    case 'http_fetch':
      return `Fetch ${String(s?.method ?? 'get').toUpperCase()} ${String(s?.url ?? '')}`;
    case 'branch':
      return `Branch into ${(step.branches as unknown[] | undefined)?.length ?? 0} paths`;
    case 'random_cohort':
      return `Split into ${(step.cohort_branches as unknown[] | undefined)?.length ?? 0} random cohorts`;
    case 'trigger_workflow':
      return `Trigger workflow ${String(s?.workflow_key ?? (step as any).workflow_key ?? '')}`;
    default:
      return step.type.replace(/_/g, ' ');
  }
}

/** The steps as a readable flow: one card a step, in order; branches nest their own steps. */
function Flow({ steps, channels, depth = 0 }: { steps: Step[]; channels: Channel[]; depth?: number }) {
  if (!Array.isArray(steps) || steps.length === 0)
    return (
      <Text c="dimmed" size="sm">
        No steps.
      </Text>
    );
  return (
    <Stack gap="xs" component="ol" style={{ listStyle: 'none', paddingLeft: depth ? 24 : 0, margin: 0 }} aria-label="Steps">
      {steps.map((step, i) => (
        <li key={`${step.ref}-${i}`}>
          <Card withBorder padding="sm">
            <Group gap="sm">
              <Text size="xs" c="dimmed">
                {i + 1}
              </Text>
              <Badge variant="light" radius="sm" tt="none">
                {step.type}
              </Badge>
              <Code>{step.ref}</Code>
              <Text size="sm">{describe(step, channels)}</Text>
              {Boolean(step.conditions) && (
                <Badge variant="outline" color="grape" radius="sm" tt="none" title={JSON.stringify(step.conditions)}>
                  conditional
                </Badge>
              )}
            </Group>
            {Array.isArray(step.branches) &&
              (step.branches as { name?: string; conditions?: unknown; steps?: Step[] }[]).map((b, j, all) => (
                <Stack key={j} gap={4} mt="xs" pl="md">
                  <Text size="sm" fw={500}>
                    {b.name || (j === all.length - 1 ? 'Default' : `Branch ${j + 1}`)}
                    {b.conditions ? ` — when ${JSON.stringify(b.conditions)}` : j === all.length - 1 ? ' (otherwise)' : ''}
                  </Text>
                  <Flow steps={b.steps ?? []} channels={channels} depth={depth + 1} />
                </Stack>
              ))}
            {Array.isArray(step.cohort_branches) &&
              (step.cohort_branches as { name?: string; percentage?: string; steps?: Step[] }[]).map((b, j) => (
                <Stack key={j} gap={4} mt="xs" pl="md">
                  <Text size="sm" fw={500}>
                    {b.name || `Cohort ${j + 1}`} ({b.percentage}%)
                  </Text>
                  <Flow steps={b.steps ?? []} channels={channels} depth={depth + 1} />
                </Stack>
              ))}
          </Card>
        </li>
      ))}
    </Stack>
  );
}

type Validation = { state: 'idle' | 'checking' } | { state: 'valid' } | { state: 'invalid'; error: unknown };

/** The workflow as JSON; every change is checked by the server's validate route (the same contracts as the upsert). */
function Editor({
  workflowKey,
  draft,
  onDraft,
  onSaved,
}: {
  workflowKey: string;
  draft: string;
  onDraft(v: string): void;
  onSaved(saved: Workflow): void;
}) {
  const { api, environment, role } = useConsole();
  const [debounced] = useDebouncedValue(draft, 400);
  const [validation, setValidation] = useState<Validation>({ state: 'idle' });
  const [message, setMessage] = useState('');
  const [saving, setSaving] = useState(false);
  const [saved, setSaved] = useState<string | null>(null);
  const [saveError, setSaveError] = useState<unknown>(null);
  const [format, setFormat] = useState<'json' | 'yaml'>('json');
  const [yamlText, setYamlText] = useState('');
  const [yamlError, setYamlError] = useState<string | null>(null);

  const switchFormat = (next: string) => {
    if (next === 'yaml') {
      try {
        setYamlText(YAML.stringify(JSON.parse(draft)));
        setYamlError(null);
      } catch {
        return; // the JSON does not parse: stay in JSON until it does
      }
    }
    setFormat(next as 'json' | 'yaml');
  };
  const onYaml = (text: string) => {
    setYamlText(text);
    try {
      onDraft(JSON.stringify(YAML.parse(text), null, 2));
      setYamlError(null);
    } catch (e) {
      setYamlError((e as Error).message);
    }
  };

  useEffect(() => {
    if (!debounced) return;
    let body: unknown;
    try {
      body = JSON.parse(debounced);
    } catch (e) {
      setValidation({ state: 'invalid', error: new ApiError(0, 'invalid_json', `Not JSON: ${(e as Error).message}`) });
      return;
    }
    const controller = new AbortController();
    setValidation({ state: 'checking' });
    api
      .service('PUT', `/v1/workflows/${encodeURIComponent(workflowKey)}/validate`, {
        query: { environment },
        body: { workflow: body },
        signal: controller.signal,
      })
      .then(
        () => !controller.signal.aborted && setValidation({ state: 'valid' }),
        (error: unknown) => !controller.signal.aborted && setValidation({ state: 'invalid', error }),
      );
    return () => controller.abort();
  }, [api, environment, workflowKey, debounced]);

  // Nothing is saved while the text does not parse or the server lists problems with it.
  const hasErrors = validation.state === 'invalid' || (format === 'yaml' && !!yamlError);
  const save = async (commit: boolean) => {
    setSaving(true);
    setSaveError(null);
    setSaved(null);
    try {
      const answer = await api.service<{ workflow: Workflow }>('PUT', `/v1/workflows/${encodeURIComponent(workflowKey)}`, {
        query: { environment, commit: commit || undefined, commit_message: commit ? message || undefined : undefined },
        body: { workflow: JSON.parse(draft) },
      });
      setSaved(
        `Saved${commit ? ' and committed' : ''}: sha ${answer.workflow.sha.slice(0, 12)}${answer.workflow.valid ? '' : ' (not valid)'}`,
      );
      onSaved(answer.workflow);
    } catch (e) {
      setSaveError(e);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Stack>
      <SegmentedControl
        aria-label="Format"
        value={format}
        onChange={switchFormat}
        data={[
          { value: 'json', label: 'JSON' },
          { value: 'yaml', label: 'YAML' },
        ]}
        w={160}
      />
      {format === 'json' ? (
        <JsonInput
          label="Workflow JSON"
          description="Checked by the server as you type (PUT /v1/workflows/{key}/validate)."
          value={draft}
          onChange={onDraft}
          autosize
          minRows={12}
          maxRows={30}
          styles={{ input: { fontFamily: 'monospace', fontSize: 13 } }}
          spellCheck={false}
        />
      ) : (
        <Textarea
          label="Workflow YAML"
          description="Checked by the server as you type (PUT /v1/workflows/{key}/validate)."
          value={yamlText}
          onChange={(e) => onYaml(e.currentTarget.value)}
          error={yamlError ? `Not YAML: ${yamlError}` : undefined}
          autosize
          minRows={12}
          maxRows={30}
          styles={{ input: { fontFamily: 'monospace', fontSize: 13 } }}
          spellCheck={false}
        />
      )}
      <div aria-live="polite" data-testid="validation">
        {validation.state === 'checking' && (
          <Text size="sm" c="dimmed">
            Checking…
          </Text>
        )}
        {validation.state === 'valid' && (
          <Alert color="green" variant="light" title="Valid" role="status">
            The server accepts this workflow.
          </Alert>
        )}
        {validation.state === 'invalid' && <ErrorAlert error={validation.error} title="Not valid" />}
      </div>
      <Group align="end">
        <TextInput label="Commit message" value={message} onChange={(e) => setMessage(e.currentTarget.value)} w={320} />
        <Button onClick={() => void save(false)} loading={saving} variant="default" disabled={role === 'viewer' || hasErrors}>
          Save
        </Button>
        <Button onClick={() => void save(true)} loading={saving} disabled={role === 'viewer' || hasErrors}>
          Save and commit
        </Button>
      </Group>
      {saved && (
        <Alert color="green" role="status">
          {saved}
        </Alert>
      )}
      <ErrorAlert error={saveError} title="Not saved" />
    </Stack>
  );
}

function channelSteps(steps: unknown, out: Step[] = []): Step[] {
  if (!Array.isArray(steps)) return out;
  for (const step of steps as Step[]) {
    if (step?.type === 'channel') out.push(step);
    for (const b of (step?.branches as { steps?: Step[] }[] | undefined) ?? []) channelSteps(b.steps, out);
    for (const b of (step?.cohort_branches as { steps?: Step[] }[] | undefined) ?? []) channelSteps(b.steps, out);
  }
  return out;
}

interface PreviewAnswer {
  result: 'success' | 'error';
  errors?: { field: string | null; line?: number | null; message: string }[] | null;
  content_type: string;
  template?: Record<string, unknown>;
}

/** Renders a channel step of the workflow as edited (not yet saved) for a recipient and data (POST /v1/templates/preview). */
function Preview({ workflowKey, workflow, channels }: { workflowKey: string; workflow: Record<string, unknown>; channels: Channel[] }) {
  const { api, environment } = useConsole();
  const steps = channelSteps(workflow.steps);
  const [ref, setRef] = useState<string | null>(steps[0]?.ref ?? null);
  const [recipient, setRecipient] = useState('');
  const [data, setData] = useState('{}');
  const [answer, setAnswer] = useState<PreviewAnswer | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const [testRun, setTestRun] = useState<string | null>(null);
  const step = steps.find((s) => s.ref === ref);

  /** A test run of the version the environment serves (saved, not the draft): PUT /v1/workflows/{key}/run. */
  const runTest = async () => {
    setError(null);
    setTestRun(null);
    try {
      const answer = await api.service<{ workflow_run_id: string }>('PUT', `/v1/workflows/${encodeURIComponent(workflowKey)}/run`, {
        query: { environment },
        body: { recipients: [recipient.trim()], data: JSON.parse(data || '{}') },
      });
      setTestRun(answer.workflow_run_id);
    } catch (e) {
      setError(e);
    }
  };
  const channelType = (step?.channel_type as string | undefined) ?? channels.find((c) => c.key === step?.channel_key)?.type;

  const render = async () => {
    if (!step) return;
    setBusy(true);
    setError(null);
    setAnswer(null);
    try {
      setAnswer(
        await api.service<PreviewAnswer>('POST', '/v1/templates/preview', {
          query: { environment },
          body: {
            recipient: recipient.trim(),
            data: JSON.parse(data || '{}'),
            channel_type: channelType,
            template: step.template ?? {},
            workflow: { key: workflowKey, categories: (workflow.categories as string[] | undefined) ?? [] },
          },
        }),
      );
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };

  if (steps.length === 0)
    return (
      <Text c="dimmed" size="sm">
        This workflow has no channel step to preview.
      </Text>
    );
  return (
    <Stack>
      <Group align="end">
        <Select
          label="Step"
          data={steps.map((s) => ({ value: s.ref, label: `${s.ref} (${String(s.channel_key ?? s.channel_group_key)})` }))}
          value={ref}
          onChange={setRef}
          allowDeselect={false}
          w={280}
        />
        <TextInput label="Recipient (user id)" required value={recipient} onChange={(e) => setRecipient(e.currentTarget.value)} w={240} />
      </Group>
      <JsonInput label="Data" value={data} onChange={setData} autosize minRows={3} validationError="Not JSON" formatOnBlur />
      <Group>
        <Button onClick={() => void render()} loading={busy} disabled={!recipient.trim() || !step}>
          Render preview
        </Button>
        <Button variant="default" onClick={() => void runTest()} disabled={!recipient.trim()}>
          Run a test (saved version)
        </Button>
        <Text size="sm" c="dimmed">
          Renders the edited template with the same Liquid engine as delivery; nothing is saved or sent.
        </Text>
      </Group>
      {testRun && (
        <Alert color="blue" role="status" title="Test run started">
          <Anchor href={href('runs', undefined, { workflow_run_id: testRun })}>See its runs</Anchor>
        </Alert>
      )}
      <ErrorAlert error={error} title="Preview failed" />
      {answer && <PreviewResult answer={answer} />}
    </Stack>
  );
}

function PreviewResult({ answer }: { answer: PreviewAnswer }) {
  if (answer.result === 'error')
    return (
      <Alert color="red" title="The template does not render" role="alert">
        <List size="sm">
          {(answer.errors ?? []).map((e, i) => (
            <List.Item key={i}>
              {e.field ? <Code>{e.field}</Code> : null} {e.line ? `line ${e.line}: ` : ''}
              {e.message}
            </List.Item>
          ))}
        </List>
      </Alert>
    );
  const template = answer.template ?? {};
  return (
    <Card withBorder aria-label="Rendered preview" data-testid="preview">
      <Stack gap="sm">
        <Text size="sm" c="dimmed">
          Rendered as {answer.content_type}
        </Text>
        {Object.entries(template).map(([field, value]) =>
          field === 'html_body' && typeof value === 'string' ? (
            <div key={field}>
              <Text size="sm" fw={500}>
                {field}
              </Text>
              <iframe title="Email preview" sandbox="" srcDoc={value} style={{ width: '100%', minHeight: 240, border: '1px solid #ddd' }} />
            </div>
          ) : (
            <div key={field}>
              <Text size="sm" fw={500}>
                {field}
              </Text>
              {typeof value === 'string' ? (
                <Text size="sm" style={{ whiteSpace: 'pre-wrap' }} data-field={field}>
                  {value}
                </Text>
              ) : (
                <Json value={value} />
              )}
            </div>
          ),
        )}
      </Stack>
    </Card>
  );
}

/** What the draft changes against the version the environment has committed: each top-level field, and steps by ref. */
function Changes({ workflowKey, draft }: { workflowKey: string; draft: Record<string, unknown> | null }) {
  const { api, environment } = useConsole();
  const committed = useLoad(
    (signal) =>
      api
        .service<Workflow>('GET', `/v1/workflows/${encodeURIComponent(workflowKey)}`, {
          query: { environment, hide_uncommitted_changes: true },
          signal,
        })
        .then((w) => editable(w))
        .catch((e: unknown) => {
          if (e instanceof ApiError && e.status === 404) return {} as Record<string, unknown>;
          throw e;
        }),
    [api, environment, workflowKey],
  );
  if (!draft)
    return (
      <Text c="dimmed" size="sm">
        The draft does not parse.
      </Text>
    );
  return (
    <Async loaded={committed} label="the committed version">
      {(before) => {
        const rows: { what: string; before: unknown; after: unknown }[] = [];
        for (const field of DATA_FIELDS) {
          if (field === 'steps') continue;
          if (JSON.stringify(before[field]) !== JSON.stringify(draft[field]))
            rows.push({ what: field, before: before[field], after: draft[field] });
        }
        const stepsBefore = new Map(((before.steps as Step[] | undefined) ?? []).map((st) => [st.ref, st]));
        const stepsAfter = new Map(((draft.steps as Step[] | undefined) ?? []).map((st) => [st.ref, st]));
        for (const ref of new Set([...stepsBefore.keys(), ...stepsAfter.keys()]))
          if (JSON.stringify(stepsBefore.get(ref)) !== JSON.stringify(stepsAfter.get(ref)))
            rows.push({ what: `step ${ref}`, before: stepsBefore.get(ref), after: stepsAfter.get(ref) });
        const order = (steps: unknown) => ((steps as Step[] | undefined) ?? []).map((st) => st.ref).join(',');
        if (order(before.steps) !== order(draft.steps) && stepsBefore.size === stepsAfter.size)
          rows.push({ what: 'step order', before: order(before.steps), after: order(draft.steps) });
        if (rows.length === 0)
          return (
            <Text size="sm" c="dimmed">
              {Object.keys(before).length ? 'No changes: the draft is the committed version.' : 'Nothing is committed yet.'}
            </Text>
          );
        return (
          <Stack gap="sm" aria-label="Changes against the committed version">
            <Text size="sm" c="dimmed">
              The editor's draft against the committed version in {environment}.
            </Text>
            {rows.map((r) => (
              <Card key={r.what} withBorder padding="sm">
                <Text fw={500} size="sm" mb={4}>
                  {r.what}
                </Text>
                <SimpleGrid cols={2}>
                  <div>
                    <Text size="xs" c="red">
                      committed
                    </Text>
                    {r.before === undefined ? <Text size="sm">(absent)</Text> : <Json value={r.before} maxHeight={240} />}
                  </div>
                  <div>
                    <Text size="xs" c="green">
                      draft
                    </Text>
                    {r.after === undefined ? <Text size="sm">(absent)</Text> : <Json value={r.after} maxHeight={240} />}
                  </div>
                </SimpleGrid>
              </Card>
            ))}
          </Stack>
        );
      }}
    </Async>
  );
}

interface Commit {
  id: string;
  resource: { type: string; identifier: string };
  author: { email: string; name?: string };
  commit_message?: string;
  environment: string;
  created_at: string;
  promoted_at?: string | null;
}

/** The workflow's commits in this environment; promote one, or all of them, to another environment. */
function Commits({ workflowKey }: { workflowKey: string }) {
  const { api, environment } = useConsole();
  const commits = useLoad(
    (signal) =>
      api.service<{ entries: Commit[] }>('GET', '/v1/commits', {
        query: { environment, resource_type: ['workflow'], resource_id: workflowKey, limit: 50 },
        signal,
      }),
    [api, environment, workflowKey],
  );
  const environments = useLoad((signal) => api.service<{ entries: { slug: string }[] }>('GET', '/v1/environments', { signal }), [api]);
  const targets = (environments.data ? entriesOf(environments.data) : []).map((e) => e.slug).filter((slug) => slug !== environment);
  const [target, setTarget] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const to = target ?? targets[0] ?? null;
  const promote = async (commitId?: string) => {
    setError(null);
    setDone(null);
    try {
      if (commitId) await api.service('PUT', `/v1/commits/${commitId}/promote`);
      else
        await api.service('PUT', '/v1/commits/promote', {
          query: { to_environment: to ?? undefined, resource_type: ['workflow'], resource_id: workflowKey },
        });
      setDone(commitId ? `Commit ${commitId.slice(0, 8)} promoted.` : `Commits promoted to ${to}.`);
      commits.reload();
    } catch (e) {
      setError(e);
    }
  };
  return (
    <Stack>
      <Group align="end">
        <Select label="Promote to" data={targets} value={to} onChange={setTarget} allowDeselect={false} w={200} />
        <Button variant="default" disabled={!to} onClick={() => void promote()}>
          Promote this workflow's commits
        </Button>
      </Group>
      {done && (
        <Alert color="green" role="status">
          {done}
        </Alert>
      )}
      <ErrorAlert error={error} title="Not promoted" />
      <Async loaded={commits} label="the commits">
        {(page) => (
          <DataTable
            caption="Commits"
            rows={entriesOf(page)}
            rowKey={(c) => c.id}
            empty="No commits of this workflow in this environment."
            columns={[
              { header: 'Commit', cell: (c) => <Code>{c.id.slice(0, 8)}</Code> },
              { header: 'Message', cell: (c) => c.commit_message ?? '—' },
              { header: 'Author', cell: (c) => c.author.name ?? c.author.email },
              { header: 'Committed', cell: (c) => time(c.created_at) },
              {
                header: 'Promoted',
                cell: (c) =>
                  c.promoted_at ? (
                    time(c.promoted_at)
                  ) : (
                    <Button size="compact-xs" variant="light" onClick={() => void promote(c.id)}>
                      Promote
                    </Button>
                  ),
              },
            ]}
          />
        )}
      </Async>
    </Stack>
  );
}

/** The events of one stream, newest first. */
export function StreamHistory({ stream }: { stream: string }) {
  const { api } = useConsole();
  const events = useLoad(
    (signal) =>
      api.service<LogPage>('GET', `/v1/events/streams/${encodeURIComponent(stream)}`, {
        query: { direction: 'backwards', limit: 100 },
        signal,
      }),
    [api, stream],
  );
  return (
    <Stack gap="xs">
      <Text size="sm" c="dimmed">
        Stream <Code>{stream}</Code>, newest first.{' '}
        <Anchor size="sm" href={href('events', undefined, { stream })}>
          Open in the stream reader
        </Anchor>
      </Text>
      <Async loaded={events} label="the history">
        {(page) => <EventList events={page.entries} label={`Events of ${stream}`} />}
      </Async>
    </Stack>
  );
}
