/**
 * The kit's server-safe pieces as the server renders them: a field ties its hint and error to its
 * control, a button drawn around a link is that link, and a button is never a submit by accident.
 */
import { createElement as h } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';

describe('Field', () => {
  it('labels its control and ties the hint and the error to it', () => {
    const html = renderToStaticMarkup(
      h(Field, {
        label: 'Overlap',
        hint: '0 to 168 hours',
        error: 'Too long.',
        children: h(Input, { name: 'overlap' }),
      }),
    );
    const input = /<input[^>]*>/.exec(html)![0];
    const [, described] = /aria-describedby="([^"]+)"/.exec(input)!;
    const ids = described!.split(' ');
    expect(ids).toHaveLength(2);
    expect(html).toMatch(new RegExp(`<p id="${ids[0]}"[^>]*>0 to 168 hours</p>`));
    expect(html).toMatch(new RegExp(`<p id="${ids[1]}"[^>]*>Too long.</p>`));
    expect(input).toContain(' aria-invalid="true"');
    expect(html).toMatch(/^<div><label[^>]*>Overlap<input/);
  });

  it('without a hint or an error the control is described by nothing and not invalid', () => {
    const input = renderToStaticMarkup(h(Field, { label: 'Name', children: h(Input, { name: 'name' }) }));
    expect(input).not.toContain(' aria-describedby=');
    expect(input).not.toContain(' aria-invalid=');
  });
});

describe('Button', () => {
  it('is type "button" unless told, so that it never submits a form by accident', () => {
    expect(renderToStaticMarkup(h(Button, null, 'Copy'))).toMatch(/^<button type="button"/);
    expect(renderToStaticMarkup(h(Button, { type: 'submit' }, 'Save'))).toMatch(/^<button type="submit"/);
  });

  it('drawn around a link is the link, with the button classes', () => {
    const html = renderToStaticMarkup(
      h(Button, { asChild: true, variant: 'primary' }, h('a', { href: '/x' }, 'New sale')),
    );
    expect(html).toMatch(/^<a [^>]*>New sale<\/a>$/);
    expect(html).toContain('href="/x"');
    expect(html).toMatch(/class="[^"]*\bbg-primary\b/);
  });
});
