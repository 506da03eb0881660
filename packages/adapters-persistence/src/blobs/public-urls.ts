/** The public URL of a blob key under a base URL: each path segment percent-encoded. */
export function publicUrlOf(baseUrl: string, key: string): string {
  return `${baseUrl}/${key.split('/').map(encodeURIComponent).join('/')}`;
}

/**
 * The key behind a URL that `publicUrlOf(baseUrl, key)` produced, or null for any other URL.
 * Only the canonical spelling counts (no query, fragment or alternative encodings).
 */
export function keyOfPublicUrl(baseUrl: string, url: string): string | null {
  if (!url.startsWith(`${baseUrl}/`)) return null;
  let key: string;
  try {
    key = url
      .slice(baseUrl.length + 1)
      .split('/')
      .map(decodeURIComponent)
      .join('/');
  } catch {
    return null; // malformed percent-encoding
  }
  return key !== '' && publicUrlOf(baseUrl, key) === url ? key : null;
}
