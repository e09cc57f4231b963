type Listener = (event: { data: unknown }) => void;

/**
 * The channel between pdf.js's API and its worker side when both run in this thread. pdf.js's own loopback
 * port structuredClones every message, the text of every page included, although what either side sends
 * is built fresh for that message, with one exception: a streamed chunk (a page's text) is an object the
 * worker keeps and refills by assigning new arrays to its properties once it is sent. So this port copies
 * that one object, shallowly, and hands everything else over as is, asynchronously and in order like a
 * real port. A test holds it to pdf.js's own port: identical layouts for every fixture.
 */
export class DirectPort {
  readonly #listeners = new Map<Listener, (() => void) | undefined>();

  postMessage(message: { chunk?: unknown }): void {
    const data = isObject(message.chunk) ? { ...message, chunk: { ...message.chunk } } : message;
    const event = { data };
    queueMicrotask(() => {
      for (const listener of this.#listeners.keys()) listener.call(this, event);
    });
  }

  /** pdf.js detaches a document's handler by aborting the signal it listened with. */
  addEventListener(_type: 'message', listener: Listener, options?: { signal?: AbortSignal }): void {
    const signal = options?.signal;
    if (signal?.aborted) return;
    const onAbort = () => this.removeEventListener('message', listener);
    signal?.addEventListener('abort', onAbort, { once: true });
    this.#listeners.set(listener, signal && (() => signal.removeEventListener('abort', onAbort)));
  }

  removeEventListener(_type: 'message', listener: Listener): void {
    this.#listeners.get(listener)?.();
    this.#listeners.delete(listener);
  }

  terminate(): void {
    for (const detach of this.#listeners.values()) detach?.();
    this.#listeners.clear();
  }

  /** How many listeners are attached: a test checks that documents do not leave theirs behind. */
  get listeners(): number {
    return this.#listeners.size;
  }
}

const isObject = (value: unknown): value is object =>
  typeof value === 'object' && value !== null && !ArrayBuffer.isView(value);
