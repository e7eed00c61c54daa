import { Button, Checkbox, Group, Select, TextInput } from '@mantine/core';
import { DependencyList, FormEvent, ReactNode, useState } from 'react';
import { entriesOf, Page } from './api';
import { Async, isoOf, Loaded, TimeInput, useLoad } from './ui';

/**
 * What the list screens (messages, runs, users) share: a filter form whose values apply on
 * submit, one page of an API list loaded for the applied filters, and the cursor to the next
 * page (a new filter starts again from the first page).
 */
export type Filters = Record<string, string | boolean>;

export interface FilteredList<F extends Filters, T> {
  form: F;
  filters: F;
  page: Loaded<Page<T>>;
  apply(event: FormEvent): void;
  next(after: string | undefined): void;
  /** Inputs bound to one field of the form. */
  text(key: keyof F & string, label: string, width?: number): ReactNode;
  select(key: keyof F & string, label: string, data: string[] | { value: string; label: string }[], width?: number): ReactNode;
  checkbox(key: keyof F & string, label: string): ReactNode;
  time(key: keyof F & string, label: string): ReactNode;
}

export function useFilteredList<F extends Filters, T>(
  initial: F,
  load: (filters: F, after: string | undefined, signal: AbortSignal) => Promise<Page<T>>,
  deps: DependencyList,
): FilteredList<F, T> {
  const [form, setForm] = useState(initial);
  const [filters, setFilters] = useState(initial);
  const [after, setAfter] = useState<string | undefined>();
  const page = useLoad((signal) => load(filters, after, signal), [...deps, filters, after]);
  const set = (key: keyof F, value: string | boolean) => setForm((f) => ({ ...f, [key]: value }));
  return {
    form,
    filters,
    page,
    apply(event) {
      event.preventDefault();
      setAfter(undefined);
      setFilters(form);
    },
    next: setAfter,
    text: (key, label, width) => (
      <TextInput key={key} label={label} value={form[key] as string} onChange={(e) => set(key, e.currentTarget.value)} w={width} />
    ),
    select: (key, label, data, width) => (
      <Select
        key={key}
        label={label}
        data={data}
        value={(form[key] as string) || null}
        onChange={(v) => set(key, v ?? '')}
        clearable
        w={width}
      />
    ),
    checkbox: (key, label) => (
      <Checkbox key={key} label={label} checked={form[key] as boolean} onChange={(e) => set(key, e.currentTarget.checked)} mb={8} />
    ),
    time: (key, label) => <TimeInput key={key} label={label} value={form[key] as string} onChange={(v) => set(key, v)} />,
  };
}

/** The query of a page of a list filtered by insertion time (since/until, local datetimes) after a cursor. */
export function pageQuery(filters: { since?: string | boolean; until?: string | boolean }, after: string | undefined, pageSize = 50) {
  return {
    'inserted_at[gte]': isoOf(String(filters.since ?? '')),
    'inserted_at[lte]': isoOf(String(filters.until ?? '')),
    page_size: pageSize,
    after,
  };
}

/** The filter form of a list: its inputs, the submit button and a refresh of the current page. */
export function FilterBar({
  list,
  label,
  submit,
  children,
}: {
  list: { apply(event: FormEvent): void; page: { reload(): void } };
  label: string;
  submit: string;
  children: ReactNode;
}) {
  return (
    <form onSubmit={list.apply} aria-label={label}>
      <Group align="end">
        {children}
        <Button type="submit">{submit}</Button>
        <Button variant="subtle" onClick={list.page.reload}>
          Refresh
        </Button>
      </Group>
    </form>
  );
}

/** One loaded page of a list as a table (or what `render` makes of its rows), with the button to the next page. */
export function PagedList<T>({
  loaded,
  label,
  onNext,
  children,
}: {
  loaded: Loaded<Page<T>>;
  label: string;
  onNext(after: string): void;
  children: (rows: T[]) => ReactNode;
}) {
  return (
    <Async loaded={loaded} label={label}>
      {(page) => (
        <>
          {children(entriesOf(page))}
          {page.page_info.after && (
            <Button variant="default" onClick={() => onNext(page.page_info.after!)} w={160}>
              Next page
            </Button>
          )}
        </>
      )}
    </Async>
  );
}
