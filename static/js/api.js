// The HTTP half of docs/protocol.md.  Every failure is thrown as an ApiError
// carrying the server's {"code", "message"} (or "network" when unreachable).

export class ApiError extends Error {
  constructor(status, code, message, data = null) {
    super(message || code);
    this.status = status;
    this.code = code;
    this.data = data; // the whole error body (a 410 "purged" carries its dates)
  }
}

async function call(method, path, body) {
  let res;
  try {
    res = await fetch(path, {
      method,
      headers: body === undefined ? {} : { "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (err) {
    throw new ApiError(0, "network", String(err && err.message ? err.message : err));
  }
  let data = null;
  try {
    data = await res.json();
  } catch {
    data = null;
  }
  if (!res.ok) {
    const detail = data && typeof data === "object" ? data : {};
    // FastAPI's own 422 body is {"detail": [...]}; the project's is {"code", "message"}.
    const message = detail.message || (Array.isArray(detail.detail) ? detail.detail.map((d) => d.msg).join("; ") : detail.detail);
    throw new ApiError(res.status, detail.code || `http_${res.status}`, message || res.statusText, detail);
  }
  return data;
}

export const createRoom = (body) => call("POST", "/api/rooms", body);
export const takeSeat = (roomId, name) => call("POST", `/api/rooms/${encodeURIComponent(roomId)}/seats`, { name });
export const getRoom = (roomId) => call("GET", `/api/rooms/${encodeURIComponent(roomId)}`);
export const lookupCode = (code) => call("GET", `/api/codes/${encodeURIComponent(code.trim())}`);
export const dealRecordUrl = (roomId, n) => `/api/rooms/${encodeURIComponent(roomId)}/deals/${n}`;
