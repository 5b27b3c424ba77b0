// The request listener of every gateway server (scripts/server.mjs, the tests' gateway): the
// merchant API's node:http front first (lib/api/http-front.ts), Next.js for everything else.
// The front is published by start-up (instrumentation.ts), which Next.js runs in the background
// after the app is created; until it is there, Next.js answers everything (its own handler waits
// for start-up to finish).

const FRONT = Symbol.for('gateway.api.front');

/** @param {(req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => Promise<void>} nextHandler */
export function gatewayRequestListener(nextHandler) {
  return (req, res) => {
    if (globalThis[FRONT]?.(req, res)) return;
    void nextHandler(req, res);
  };
}
