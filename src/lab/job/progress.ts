/**
 * Progress of long extractions (pages of a scan read so far), for whoever runs the workers in this
 * process: `lab extract` shows it in a TTY. Nothing is stored: progress is a view, the job store the truth.
 */
import { EventEmitter } from 'node:events';

export interface PageProgress {
  jobId: string;
  done: number;
  total: number;
}

const feed = new EventEmitter();
feed.setMaxListeners(0);

export function reportPages(progress: PageProgress): void {
  feed.emit('pages', progress);
}

/** Calls `listener` for each page read, until the returned function is called. */
export function onPages(listener: (progress: PageProgress) => void): () => void {
  feed.on('pages', listener);
  return () => feed.off('pages', listener);
}
