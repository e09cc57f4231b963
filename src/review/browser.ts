/**
 * Opening the review page in the user's browser: only where there is someone to see it. Without a
 * display (a server, CI, a test) the URL is printed and nothing is started.
 */
import { execa } from 'execa';

export function hasDisplay(env: NodeJS.ProcessEnv = process.env, platform = process.platform): boolean {
  if (env.CI || env.ASSAY_NO_BROWSER) return false;
  if (platform === 'darwin' || platform === 'win32') return true;
  return Boolean(env.DISPLAY || env.WAYLAND_DISPLAY);
}

/** Hand the URL to the platform's opener; a failure only means the user opens it by hand. */
export function openBrowser(url: string): void {
  const [command, args] =
    process.platform === 'darwin'
      ? ['open', [url]]
      : process.platform === 'win32'
        ? ['cmd', ['/c', 'start', '""', url]]
        : ['xdg-open', [url]];
  try {
    const child = execa(command, args as string[], { detached: true, stdio: 'ignore', reject: false });
    child.unref();
    child.catch(() => undefined);
  } catch {
    // Printed anyway; nothing to do.
  }
}
