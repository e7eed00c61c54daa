import { useEffect, useState } from 'react';

/** The console's location: the hash (`#/workflows/welcome`), so the server serves one page for every screen. */
export interface Route {
  screen: string;
  id?: string;
  params: URLSearchParams;
}

function parse(hash: string): Route {
  const [path, search = ''] = hash.replace(/^#\/?/, '').split('?');
  const [screen = '', ...rest] = path.split('/');
  const id = rest.length ? decodeURIComponent(rest.join('/')) : undefined;
  return { screen: screen || 'workflows', id, params: new URLSearchParams(search) };
}

export function useRoute(): Route {
  const [route, setRoute] = useState(() => parse(window.location.hash));
  useEffect(() => {
    const onChange = () => setRoute(parse(window.location.hash));
    window.addEventListener('hashchange', onChange);
    return () => window.removeEventListener('hashchange', onChange);
  }, []);
  return route;
}

/** The href of a screen (and an item on it). */
export function href(screen: string, id?: string, params?: Record<string, string>): string {
  const search = params ? new URLSearchParams(params).toString() : '';
  return `#/${screen}${id !== undefined ? `/${encodeURIComponent(id)}` : ''}${search ? `?${search}` : ''}`;
}

export function navigate(to: string): void {
  window.location.hash = to.replace(/^#/, '');
}
