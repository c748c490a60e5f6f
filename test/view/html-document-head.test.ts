import test from 'ava';
import { pageStyle } from '../../src/view/base-style';
import { htmlDocumentHead } from '../../src/view/html-document-head';

test('the title is escaped by the head itself; the stylesheet is kept as it is', (t) => {
  const head = htmlDocumentHead({ title: '</title><script>"x" & y', style: pageStyle('a > b { color: red; }') }).toString();
  t.true(head.includes('<title>&lt;/title&gt;&lt;script&gt;&quot;x&quot; &amp; y</title>'));
  t.false(head.includes('<script>'));
  t.regex(head, /<style>[\s\S]*a > b \{ color: red; \}<\/style>\n<\/head>$/);
});

test('robots default to noindex,nofollow and the viewport is on unless turned off', (t) => {
  const style = pageStyle('');
  const head = htmlDocumentHead({ title: 'T', style }).toString();
  t.true(head.startsWith('<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="UTF-8" />\n<link rel="icon" href="data:," />\n'));
  t.true(head.includes('<meta name="robots" content="noindex,nofollow" />\n<meta name="viewport" content="width=device-width,initial-scale=1" />\n<title>T</title>'));
  const bare = htmlDocumentHead({ title: 'T', style, robots: 'noindex,nofollow,noarchive', viewport: false }).toString();
  t.true(bare.includes('<meta name="robots" content="noindex,nofollow,noarchive" />\n<title>T</title>'));
});
