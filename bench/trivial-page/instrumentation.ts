// The trivial page runs nothing at start (docs/adr/0128): without this file Next.js took the repository
// root's instrumentation.ts (Krug's jobs and database) into this app's build.
export function register(): void {}
