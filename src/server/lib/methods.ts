const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/** Whether a request may change something: any method but GET, HEAD and OPTIONS. */
export function changesState(request: Request): boolean {
  return !SAFE_METHODS.has(request.method);
}
