/**
 * A `fetch` over XMLHttpRequest, for the sends that carry files: fetch reports no upload progress.
 * It reports the part of the body sent, and stops on `signal` only while the body is still going
 * out: once the server has the whole request it may act on it, so the answer is awaited instead.
 */

/** Thrown when the upload stopped on the signal: the server never had the whole request. */
export class UploadCancelled extends Error {
  constructor() {
    super('upload cancelled');
    this.name = 'UploadCancelled';
  }
}

const NULL_BODY = new Set([101, 204, 205, 304]);

function headersOf(raw: string): Headers {
  const headers = new Headers();
  for (const line of raw.trim().split(/[\r\n]+/)) {
    const at = line.indexOf(':');
    if (at > 0) headers.append(line.slice(0, at).trim(), line.slice(at + 1).trim());
  }
  return headers;
}

export function uploadTransport(options: { signal: AbortSignal; progress(fraction: number): void }) {
  return async (request: Request): Promise<Response> => {
    if (options.signal.aborted) throw new UploadCancelled();
    const body = await request.blob();
    if (options.signal.aborted) throw new UploadCancelled();
    return new Promise<Response>((resolve, reject) => {
      const xhr = new XMLHttpRequest();
      let uploaded = false;
      const onAbort = () => {
        if (!uploaded) xhr.abort();
      };
      const done = () => options.signal.removeEventListener('abort', onAbort);
      xhr.open(request.method, request.url);
      xhr.withCredentials = true;
      xhr.responseType = 'blob';
      for (const [name, value] of request.headers) xhr.setRequestHeader(name, value);
      xhr.upload.onprogress = (e) => {
        if (e.lengthComputable && e.total > 0) options.progress(e.loaded / e.total);
      };
      xhr.upload.onload = () => {
        uploaded = true;
        options.progress(1);
      };
      xhr.onload = () => {
        done();
        const status = xhr.status;
        resolve(
          new Response(NULL_BODY.has(status) ? null : (xhr.response as Blob), {
            status,
            statusText: xhr.statusText,
            headers: headersOf(xhr.getAllResponseHeaders()),
          }),
        );
      };
      xhr.onerror = () => {
        done();
        reject(new TypeError('the request could not be sent'));
      };
      xhr.onabort = () => {
        done();
        reject(new UploadCancelled());
      };
      options.signal.addEventListener('abort', onAbort);
      xhr.send(body);
    });
  };
}
