import type { UserRow } from '../auth/store.js';
import { html, type Html } from './html.js';

/**
 * The frame of every page and the form parts they share. Pages work without JavaScript: plain
 * forms, real buttons, labels tied to their inputs, errors announced with role="alert" and tied
 * to their fields with aria-describedby.
 */

export interface PageOptions {
  title: string;
  /** The signed-in person, for the header. */
  user?: UserRow;
  /** The CSRF token, needed when the header shows the sign-out button. */
  csrf?: string;
  body: Html;
}

export function page(options: PageOptions): Html {
  const { title, user, csrf, body } = options;
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · Plaza</title>
<link rel="stylesheet" href="/assets/plaza.css">
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header class="site">
<p class="brand"><a href="/developer">Plaza</a></p>
<nav aria-label="Account">
${
  user
    ? html`<span class="who">Signed in as <strong>@${user.username}</strong></span>
<a href="/developer">Developer console</a>
${csrf ? html`<form method="post" action="/logout" class="inline"><input type="hidden" name="_csrf" value="${csrf}"><button type="submit" class="link">Sign out</button></form>` : ''}`
    : html`<a href="/login">Sign in</a> <a href="/signup">Sign up</a>`
}
</nav>
</header>
<main id="main">
<h1>${title}</h1>
${body}
</main>
</body>
</html>
`;
}

export interface FieldOptions {
  label: string;
  name: string;
  type?: 'text' | 'password' | 'email' | 'url';
  value?: string;
  autocomplete?: string;
  required?: boolean;
  hint?: string;
  error?: string;
  /** Put the cursor here when the page opens. */
  autofocus?: boolean;
}

export function field(o: FieldOptions): Html {
  const id = `f-${o.name}`;
  const described = [o.hint ? `${id}-hint` : '', o.error ? `${id}-error` : ''].filter(Boolean).join(' ');
  return html`<div class="field${o.error ? ' invalid' : ''}">
<label for="${id}">${o.label}</label>
${o.hint ? html`<p class="hint" id="${id}-hint">${o.hint}</p>` : ''}
${o.error ? html`<p class="error" id="${id}-error">${o.error}</p>` : ''}
<input id="${id}" name="${o.name}" type="${o.type ?? 'text'}"${o.value !== undefined ? html` value="${o.value}"` : ''}${
    o.autocomplete ? html` autocomplete="${o.autocomplete}"` : ''
  }${o.required ? html` required` : ''}${described ? html` aria-describedby="${described}"` : ''}${o.error ? html` aria-invalid="true"` : ''}${
    o.autofocus ? html` autofocus` : ''
  }>
</div>`;
}

export function hidden(name: string, value: string): Html {
  return html`<input type="hidden" name="${name}" value="${value}">`;
}

/** The problems with a submitted form, announced when the page loads again. */
export function errorSummary(messages: string[]): Html {
  if (messages.length === 0) return html``;
  return html`<div class="error-summary" role="alert" aria-labelledby="error-summary-title">
<h2 id="error-summary-title">There is a problem</h2>
<ul>${messages.map((m) => html`<li>${m}</li>`)}</ul>
</div>`;
}

/** A short confirmation, announced politely. */
export function notice(message: string | undefined): Html {
  return message ? html`<div class="notice" role="status"><p>${message}</p></div>` : html``;
}

/** The two credential fields of the sign-in form and of the consent pages. */
export function credentialFields(o: { username?: string; error?: string; autofocus?: boolean }): Html {
  return html`${field({ label: 'Username or email', name: 'username', value: o.username ?? '', autocomplete: 'username', required: true, autofocus: o.autofocus && !o.username, error: o.error })}
${field({ label: 'Password', name: 'password', type: 'password', autocomplete: 'current-password', required: true, autofocus: o.autofocus && !!o.username })}`;
}
