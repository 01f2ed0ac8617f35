import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startTestPlaza, type TestPlaza } from '../../support/server.js';
import { fixtures, type Fixtures } from '../../support/fixtures.js';
import { detectLang } from '../../../src/platform/posts/lang.js';
import { parseEntities } from '../../../src/platform/posts/entities.js';

/** Issue 34: a post's lang is detected from its text, as the public platform labels posts. */

let plaza: TestPlaza;
let g: Fixtures;

before(async () => {
  plaza = await startTestPlaza();
  g = fixtures(plaza);
});
after(() => plaza.close());

const lang = (text: string, media = false) => detectLang(text, parseEntities(text), media);

test('lang from the text: en, pt, fr, es, de, ja, ko; und for text too short; zxx for links or media only; qam, qht, qct for mentions, hashtags, cashtags only', () => {
  assert.equal(lang('Hello from the API, a first post today'), 'en');
  assert.equal(lang('Bom dia a todos, hoje o dia está lindo no Rio'), 'pt');
  assert.equal(lang("Bonjour à tous, il fait beau aujourd'hui à Paris"), 'fr');
  assert.equal(lang('Hola a todos, ¿cómo están hoy? Qué buen día'), 'es');
  assert.equal(lang('Guten Morgen zusammen, heute scheint die Sonne'), 'de');
  assert.equal(lang('こんにちは、世界'), 'ja');
  assert.equal(lang('안녕하세요 여러분'), 'ko');
  assert.equal(lang('ok'), 'und');
  assert.equal(lang('https://example.com/a'), 'zxx');
  assert.equal(lang('', true), 'zxx');
  assert.equal(lang('@ada @chen'), 'qam');
  assert.equal(lang('#plaza #api'), 'qht');
  assert.equal(lang('$PLZ'), 'qct');
  assert.equal(lang('@ada Bom dia a todos, hoje o dia está lindo https://example.com #rio'), 'pt', 'entities are set aside');
});

test('a post made through the interface carries the detected lang', async () => {
  const dana = g.oauth2As('dana');
  const pt = await g.post(dana, { text: `Bom dia a todos, hoje o dia está lindo no Rio ${Date.now()}` });
  assert.equal(pt.status, 201, pt.text);
  const read = await g.get(`/2/posts/${pt.body.data.id}?post.fields=lang`, { auth: g.appAuth });
  assert.equal(read.body.data.lang, 'pt');
});

test('context_annotations from the built-in entity list: the public platform\'s ids for well-known entities, Plaza\'s for its own', async () => {
  const dana = await g.enterpriseAs('dana');
  const made = await g.post(dana, { text: `Reading tweets about #music over coffee ${Date.now()}` });
  assert.equal(made.status, 201, made.text);
  const read = await g.get(`/2/posts/${made.body.data.id}?post.fields=context_annotations`, { auth: g.appAuth });
  const pairs = read.body.data.context_annotations.map((a: { domain: { id: string }; entity: { name: string } }) => `${a.domain.id}:${a.entity.name}`);
  assert.deepEqual(pairs, ['46:Services', '47:Twitter', '131:Music', '131:Coffee']);
  assert.equal(read.body.data.context_annotations[1].entity.id, '10045225402');
  const plain = await g.post(dana, { text: `Nothing to annotate here ${Date.now()}` });
  const none = await g.get(`/2/posts/${plain.body.data.id}?post.fields=context_annotations`, { auth: g.appAuth });
  assert.equal(none.body.data.context_annotations, undefined);
});
