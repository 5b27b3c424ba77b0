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
  // React posts a call whose arguments hold a form as multipart/form-data, and one whose arguments
  // are plain values as their JSON text: an action that takes no argument (the demo store's Pay) is
  // called with `[]`, since Next.js leaves out the arguments an action does not read.
  if (!/^multipart\/form-data;.*\bboundary=/i.test(type)) {
    if (!isAction) return undefined;
    return plainArguments(await request.clone().text()) ? undefined : 'not a form';
  }
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
 * Whether `text` is a call's arguments as plain JSON values: an array, and no string in it a
 * reference of React's reply format ("$K1", "$Q2": they name parts only a multipart body has; a
 * string of the caller's that starts with "$" is sent as "$$...").
 */
function plainArguments(text: string): boolean {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return false;
  }
  const plain = (value: unknown): boolean =>
    typeof value === 'string'
      ? !/^\$[^$]/.test(value)
      : Array.isArray(value)
        ? value.every(plain)
        : value !== null && typeof value === 'object'
          ? Object.values(value).every(plain)
          : true;
  return Array.isArray(parsed) && plain(parsed);
}

/**
 * The form a server action was posted, or an empty one when what arrived in its place is not a
 * form (a post whose arguments have another shape): its fields then read as missing, and the
 * action's zod schema refuses them with the form's own message.
 */
export function postedForm(value: unknown): FormData {
  return value instanceof FormData ? value : new FormData();
}
