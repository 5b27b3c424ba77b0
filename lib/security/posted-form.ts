/**
 * What a page's form post holds, read before Next.js decodes it as a server action's call: a
 * server action's arguments arrive as React encoded them, and a forged post (a body that is not a
 * form, a broken multipart body, arguments of another shape) would otherwise fail inside Next.js
 * or the action, answered 500. Pure but for reading the body: unit-tested in posted-form.test.ts.
 */

/** Why a page's POST cannot be a form of this app; undefined when it can. */
export async function malformedPost(request: Request): Promise<string | undefined> {
  const type = request.headers.get('content-type') ?? '';
  const isAction = request.headers.has('next-action');
  // Every action of this app takes a form, which React always posts as multipart/form-data.
  if (!/^multipart\/form-data;.*\bboundary=/i.test(type)) return isAction ? 'not a form' : undefined;
  let form: FormData;
  try {
    form = await request.clone().formData();
  } catch {
    return 'a broken multipart body';
  }
  if (!isAction) return undefined;
  // React's reply: the arguments as a JSON array in field 0, the form a "$K<n>" reference among them.
  const args = form.get('0');
  try {
    const parsed: unknown = typeof args === 'string' ? JSON.parse(args) : undefined;
    return Array.isArray(parsed) ? undefined : 'no arguments';
  } catch {
    return 'no arguments';
  }
}

/**
 * The form a server action was posted, or an empty one when what arrived in its place is not a
 * form (a post whose arguments have another shape): its fields then read as missing, and the
 * action's zod schema refuses them with the form's own message.
 */
export function postedForm(value: unknown): FormData {
  return value instanceof FormData ? value : new FormData();
}
