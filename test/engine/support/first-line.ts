import type { ChildProcess } from 'node:child_process';

/** The first line a child process writes to stdout: how test children say they reached a point. */
export async function firstLine(child: ChildProcess): Promise<string> {
  let buffer = '';
  for await (const chunk of child.stdout as NodeJS.ReadableStream) {
    buffer += chunk.toString();
    if (buffer.includes('\n')) return buffer.split('\n')[0] as string;
  }
  throw new Error('child exited before writing a line');
}
