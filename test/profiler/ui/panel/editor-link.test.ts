import test from 'ava';
import { createEditorLink } from '../../../../src/profiler/ui/panel/editor-link';
import { createSourceFiles } from '../../../../src/view/source-files';

const srv = createSourceFiles('/srv');

test('the template gets the file for %f and the line for %l, as Symfony\'s framework.ide', (t) => {
  const link = createEditorLink('vscode://file/%f:%l', srv);
  t.is(link('/srv/app/src/orders.ts', 42), 'vscode://file//srv/app/src/orders.ts:42');
  t.is(createEditorLink('phpstorm://open?file=%f&line=%l&x=%%', createSourceFiles('/'))('/a.ts', 1), 'phpstorm://open?file=/a.ts&line=1&x=%');
});

test('a file URL becomes its path; a space, # or ? in the path cannot end the link early', (t) => {
  const link = createEditorLink('vscode://file/%f:%l', srv);
  t.is(link('file:///srv/my%20app/x.mjs', 3), 'vscode://file//srv/my%20app/x.mjs:3');
  t.is(link('/srv/a b/#c?.ts', 3), 'vscode://file//srv/a%20b/%23c%3F.ts:3');
});

test('no template, or a position that is not a file on disk, gives no link', (t) => {
  t.is(createEditorLink(null, srv)('/srv/app.ts', 1), null);
  t.is(createEditorLink('vscode://file/%f:%l', srv)('node:internal/process/task_queues', 95), null);
});

test('only the application\'s source gets a link: not a file outside its root, in node_modules, or not source', (t) => {
  const link = createEditorLink('vscode://file/%f:%l', srv);
  for (const file of ['/etc/passwd', '/srv/.env', '/srv/node_modules/pg/lib/client.js', '/srv/../etc/x.ts', '/srvx/app.ts', 'relative/app.ts', 'file:///proc/self/environ']) {
    t.is(link(file, 1), null, file);
  }
});
