/**
 * The name a server upload is stored under. A caller's filename often names the patient
 * ("Jane_Doe_2024-03_labs.pdf") and a hash of it is guessable, so only a plain extension is kept.
 */
export function storedUploadName(given: string | undefined): string {
  const ext = /\.([a-z0-9]{1,5})$/i.exec(given ?? '')?.[1]?.toLowerCase();
  return `upload.${ext ?? 'pdf'}`;
}
