// Connection-string helpers without the pg client, so a command on the SQLite default never loads pg.

export const isPostgresUrl = (store: string | undefined): store is string =>
  !!store && /^postgres(ql)?:\/\//i.test(store);

/** host/database of a connection string, never its user or password: safe for messages and logs. */
export function describeUrl(url: string): string {
  try {
    const u = new URL(url);
    const host = u.searchParams.get('host') ?? (u.host || 'localhost');
    return `${host}${u.pathname || '/'}`;
  } catch {
    return 'the PostgreSQL server';
  }
}
