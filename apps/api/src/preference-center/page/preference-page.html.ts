import { FormRow } from './preference-form';

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const STYLE = `body{font-family:system-ui,sans-serif;max-width:40rem;margin:2rem auto;padding:0 1rem;line-height:1.5;color:#111}
fieldset{border:1px solid #ccc;border-radius:.5rem;margin:1rem 0;padding:.75rem 1rem}legend{font-weight:600}
label{display:inline-flex;align-items:center;gap:.35rem;margin-right:1rem}input[type=checkbox]{width:1.1rem;height:1.1rem}
button{font:inherit;padding:.5rem 1.25rem;border-radius:.4rem;border:0;background:#1d4ed8;color:#fff;cursor:pointer}
button:focus-visible,input:focus-visible{outline:3px solid #f59e0b;outline-offset:2px}
[role=status]{background:#ecfdf5;border:1px solid #10b981;padding:.5rem 1rem;border-radius:.4rem}
[role=alert]{background:#fef2f2;border:1px solid #ef4444;padding:.5rem 1rem;border-radius:.4rem}`;

function page(title: string, main: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<meta name="referrer" content="no-referrer">
<title>${escape(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
${main}
</main>
</body>
</html>`;
}

export interface PreferencePageView {
  title: string;
  body: string;
  accountName: string | null;
  who: string;
  rows: FormRow[];
  saved: boolean;
}

/** The preference form: a fieldset per row, a labelled checkbox per choice, one submit button. */
export function preferencePage(view: PreferencePageView): string {
  const rows = view.rows
    .map((row, i) => {
      const describedBy = row.description ? ` aria-describedby="row-${i}-description"` : '';
      const description = row.description ? `\n<p id="row-${i}-description">${escape(row.description)}</p>` : '';
      const boxes = row.boxes
        .map((box, j) => {
          const id = `row-${i}-${j}`;
          return `<label for="${id}"><input type="checkbox" id="${id}" name="${escape(box.name)}" value="on"${box.checked ? ' checked' : ''}> ${escape(box.label)}</label>`;
        })
        .join('\n');
      return `<fieldset${describedBy}>\n<legend>${escape(row.name)}</legend>${description}\n${boxes}\n</fieldset>`;
    })
    .join('\n');
  const status = view.saved ? '\n<p role="status">Your preferences were saved.</p>' : '';
  const account = view.accountName ? `<p>${escape(view.accountName)}</p>\n` : '';
  return page(
    view.title,
    `${account}<h1>${escape(view.title)}</h1>
<p>${escape(view.body)}</p>
<p>Preferences of ${escape(view.who)}</p>${status}
<form method="post">
${rows}
<button type="submit">Save preferences</button>
</form>`,
  );
}

/** An unsubscribe link opened in a browser: a GET never unsubscribes, the button posts the one-click form. */
export function unsubscribeConfirmPage(categories: string[], who: string): string {
  return page(
    'Unsubscribe',
    `<h1>Unsubscribe</h1>
<p>Stop emails about ${escape(categories.join(', '))} to ${escape(who)}?</p>
<form method="post">
<input type="hidden" name="List-Unsubscribe" value="One-Click">
<button type="submit">Unsubscribe</button>
</form>`,
  );
}

export function unsubscribedPage(categories: string[]): string {
  return page(
    'Unsubscribed',
    `<h1>Unsubscribed</h1>\n<p role="status">You will no longer receive emails about ${escape(categories.join(', '))}.</p>`,
  );
}

/** Why a link cannot be used; nothing was read or written. */
export function errorPage(title: string, message: string): string {
  return page(title, `<h1>${escape(title)}</h1>\n<p role="alert">${escape(message)}</p>`);
}
