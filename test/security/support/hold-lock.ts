import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { ROOT } from './serve-process.js';

/** Another process holding the store's write lock (BEGIN IMMEDIATE) for `ms`; resolves once it holds it. */
export async function holdLock(home: string, ms: number, children: ChildProcess[]): Promise<ChildProcess> {
  const script = `
    const Database = require('better-sqlite3');
    const db = new Database(process.argv[1]);
    db.pragma('busy_timeout = 10000');
    db.exec('BEGIN IMMEDIATE');
    process.stdout.write('locked\\n');
    setTimeout(() => { db.exec('ROLLBACK'); db.close(); }, Number(process.argv[2]));`;
  const locker = spawn(process.execPath, ['-e', script, join(home, 'assay.db'), String(ms)], { cwd: ROOT });
  children.push(locker);
  await new Promise<void>((resolve, reject) => {
    locker.stdout?.once('data', () => resolve());
    locker.once('exit', (code) => reject(new Error(`locker exited ${code}`)));
  });
  return locker;
}
