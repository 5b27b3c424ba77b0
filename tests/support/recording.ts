import type { Database, Queryable } from '@/lib/db/client';

/** The statements a call runs (their SQL, in order), inside transactions too. */
export function recording(target: Database, texts: string[]): Database {
  const wrap = <Q extends Queryable>(q: Q): Q =>
    new Proxy(q, {
      get(obj, key) {
        if (key === 'query')
          return (text: string, params?: readonly unknown[], name?: string) => {
            texts.push(text);
            return obj.query(text, params, name);
          };
        if (key === 'transaction')
          return (work: (tx: Queryable) => Promise<unknown>) =>
            (obj as unknown as Database).transaction((tx) => work(wrap(tx)));
        const value: unknown = Reflect.get(obj, key, obj);
        return typeof value === 'function' ? value.bind(obj) : value;
      },
    }) as Q;
  return wrap(target);
}
