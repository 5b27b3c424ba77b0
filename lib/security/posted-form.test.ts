import { describe, expect, it } from 'vitest';
import { malformedPost, postedForm } from './posted-form';

const post = (body: string, headers: Record<string, string>) =>
  new Request('http://gateway.test/dashboard/sign-in', { method: 'POST', body, headers });
const part = (name: string, value: string) =>
  `--x\r\ncontent-disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
const MULTIPART = { 'content-type': 'multipart/form-data; boundary=x' };
const ACTION = { ...MULTIPART, 'next-action': 'abc' };

describe('malformed form posts', () => {
  it('passes a server action call as React posts it, and a form posted without script', async () => {
    expect(await malformedPost(post(part('1_email', 'a@b.c') + part('0', '[{},"$K1"]') + '--x--\r\n', ACTION))).toBe(
      undefined,
    );
    expect(await malformedPost(post(part('email', 'a@b.c') + '--x--\r\n', MULTIPART))).toBe(undefined);
    // An action that reads no argument (the demo store's Pay): Next.js posts `[]` as text.
    expect(await malformedPost(post('[]', { 'content-type': 'text/plain;charset=UTF-8', 'next-action': 'abc' }))).toBe(
      undefined,
    );
    expect(await malformedPost(post('["$$5",1]', { 'content-type': 'text/plain', 'next-action': 'abc' }))).toBe(
      undefined,
    );
  });

  it('names what is wrong with a post no form of this app makes', async () => {
    expect(await malformedPost(post('garbage\u0000', { 'content-type': 'text/plain', 'next-action': 'abc' }))).toBe(
      'not a form',
    );
    expect(await malformedPost(post('{"a":1}', { 'content-type': 'text/plain', 'next-action': 'abc' }))).toBe(
      'not a form',
    );
    expect(await malformedPost(post('["$K1"]', { 'content-type': 'text/plain', 'next-action': 'abc' }))).toBe(
      'not a form',
    );
    expect(await malformedPost(post('[{"a":["$Q2"]}]', { 'content-type': 'text/plain', 'next-action': 'abc' }))).toBe(
      'not a form',
    );
    expect(await malformedPost(post('--x\r\ngarbage', ACTION))).toBe('a broken multipart body');
    expect(await malformedPost(post('--x\r\ngarbage', MULTIPART))).toBe('a broken multipart body');
    expect(await malformedPost(post(part('0', '"garbage"') + '--x--\r\n', ACTION))).toBe('no arguments');
    expect(await malformedPost(post(part('email', 'a@b.c') + '--x--\r\n', ACTION))).toBe('no arguments');
  });

  it('leaves other posts to their pages', async () => {
    expect(await malformedPost(post('a=1', { 'content-type': 'application/x-www-form-urlencoded' }))).toBe(undefined);
  });

  it('reads something that is not a form as an empty one', () => {
    const form = new FormData();
    expect(postedForm(form)).toBe(form);
    expect([...postedForm('y').keys()]).toEqual([]);
    expect([...postedForm({ get: () => 'forged' }).keys()]).toEqual([]);
  });
});
