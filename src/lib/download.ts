/**
 * Offers `text` to the user as a file to save, the way a download link would, without a server
 * round trip (works offline).
 */
export function downloadText(filename: string, text: string, type = 'application/json'): void {
  downloadBlob(filename, new Blob([text], { type }));
}

/** The same for bytes made in the browser (a zip, a CSV). */
export function downloadBlob(filename: string, blob: Blob): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // Revoked once the click has been handled: the browser has the file by then.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
