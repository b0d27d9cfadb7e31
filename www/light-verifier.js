// The page's side of www/light-worker.js: one Worker running the light (verify-only) build,
// started on first use and shared by the light-client and Magnetar tabs.
//
//   const verifier = lightVerifier();
//   const { client } = await verifier.call({ op: 'follow', … }, (event) => draw(event));
//
// Only moves messages (request/response by id, plus per-request events); no cryptography.

const WORKER_URL = new URL('./light-worker.js', import.meta.url);

let shared = null;

/** The shared light-build worker. */
export function lightVerifier() {
  if (shared) return shared;
  const worker = new Worker(WORKER_URL, { type: 'module', name: 'quasar-light-verifier' });
  const pending = new Map(); // id -> { resolve, reject, onEvent }
  let nextId = 1;
  let dead = null;

  worker.addEventListener('message', ({ data }) => {
    const p = pending.get(data.id);
    if (!p) return;
    if (data.event) {
      p.onEvent?.(data);
      return;
    }
    pending.delete(data.id);
    if (data.error) {
      const err = new Error(data.error.message);
      err.name = data.error.name;
      if (data.error.code) err.code = data.error.code;
      p.reject(err);
    } else {
      p.resolve(data.result);
    }
  });
  worker.addEventListener('error', (e) => {
    e.preventDefault();
    dead = new Error(`the light-client worker failed to start or crashed: ${e.message || 'no message'}`);
    for (const p of pending.values()) p.reject(dead);
    pending.clear();
  });

  shared = {
    /** Send `request` (its `op` and fields); `onEvent` sees its progress events. */
    call(request, onEvent) {
      if (dead) return Promise.reject(dead);
      const id = nextId++;
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve, reject, onEvent });
        worker.postMessage({ ...request, id });
      });
    },
  };
  return shared;
}
