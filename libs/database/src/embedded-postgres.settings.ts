/**
 * The PostgreSQL settings of the embedded database (PGlite), passed as `-c name=value` when its
 * single-user backend starts, so they override the postgresql.conf that initdb wrote (and the
 * data directory keeps no setting of ours). ADR 0155 has the measurements behind each value.
 *
 * PGlite's WebAssembly memory only grows: whatever Postgres touches once (its buffer pool, a
 * sort's work memory, an index build's maintenance memory) stays resident for the life of the
 * process. So the values bound the resident memory rather than the performance.
 */
export const EMBEDDED_POSTGRES_SETTINGS = {
  // initdb picks 128MB; the whole pool is allocated and initialised at start (~120 MB resident).
  // The embedded default serves one process on a small data set, and the files sit in the
  // operating system's page cache behind it.
  shared_buffers: '16MB',
  // One backend serves every connection (PGlite is single-user); per-backend arrays and the
  // lock table are sized from max_connections.
  max_connections: '4',
  // Bounds a sort or hash before it spills to a temporary file; the default, stated.
  work_mem: '4MB',
  // Index builds and VACUUM (migrations) would otherwise raise the high-water mark to 64MB.
  maintenance_work_mem: '16MB',
  // Allocated on a session's first temporary table; none are used, bounded anyway.
  temp_buffers: '2MB',
} as const satisfies Record<string, string>;

/**
 * The thread PGlite runs on. Its JavaScript only moves protocol messages and file pages, so a
 * small young generation is enough (Node's default lets it grow to 32 MB).
 *
 * V8 compiles WebAssembly with its baseline compiler (Liftoff) and then recompiles the hot
 * functions with its optimizing compiler (TurboFan) on background tasks. For Postgres, a large
 * module whose many functions all become hot (the parser, the planner, the executor), that
 * TurboFan code and the compiler's own memory stayed resident: ADR 0155 measured it at most of the
 * embedded default's memory. `liftoffOnly` keeps the module on Liftoff code; statements are
 * slower, by less than the service notices at the embedded default's scale (ADR 0155 has both).
 * V8 flags are process-wide: this also applies to any other WebAssembly compiled from then on
 * (undici's HTTP parser), as does the number of compilation tasks.
 */
export const EMBEDDED_POSTGRES_THREAD = {
  maxYoungGenerationSizeMb: 8,
  wasmCompilationTasks: 1,
  liftoffOnly: true,
} as const;

/** The V8 flags set before PGlite's WebAssembly is compiled. */
export function embeddedV8Flags(thread: { wasmCompilationTasks: number; liftoffOnly: boolean } = EMBEDDED_POSTGRES_THREAD): string[] {
  return [`--wasm-num-compilation-tasks=${thread.wasmCompilationTasks}`, ...(thread.liftoffOnly ? ['--liftoff-only'] : [])];
}

export type EmbeddedPostgresSetting = keyof typeof EMBEDDED_POSTGRES_SETTINGS;

/** The settings as backend command-line options, appended to PGlite's own start parameters. */
export function embeddedStartParams(settings: Record<string, string> = EMBEDDED_POSTGRES_SETTINGS): string[] {
  return Object.entries(settings).flatMap(([name, value]) => ['-c', `${name}=${value}`]);
}
