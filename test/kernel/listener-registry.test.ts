import test from 'ava';
import { type Exchange } from '../../src/kernel/exchange';
import { type Listener } from '../../src/kernel/listener';
import { ListenerRegistry } from '../../src/kernel/listener-registry';

const noop = (_exchange: Exchange): void => undefined;

function listener(name: string, subscriptions: Listener['subscriptions']): Listener {
  return { name, subscriptions };
}

function order(registry: ListenerRegistry, phase: Parameters<ListenerRegistry['for']>[0]): string[] {
  return registry.for(phase).map(({ name, priority }) => `${name}@${priority}`);
}

test('listeners of a phase run highest priority first', (t) => {
  const registry = new ListenerRegistry([
    listener('Low', { 'kernel.request': { priority: -10, handle: noop } }),
    listener('High', { 'kernel.request': { priority: 256, handle: noop } }),
    listener('Middle', { 'kernel.request': { priority: 32, handle: noop } }),
  ]);
  t.deepEqual(order(registry, 'kernel.request'), ['High@256', 'Middle@32', 'Low@-10']);
});

test('listeners of the same priority keep the order they were registered in', (t) => {
  const registry = new ListenerRegistry([
    listener('A', { 'kernel.response': { priority: 0, handle: noop } }),
    listener('B', { 'kernel.response': { priority: 8, handle: noop } }),
    listener('C', { 'kernel.response': { priority: 0, handle: noop } }),
    listener('D', { 'kernel.response': { priority: 0, handle: noop } }),
  ]);
  t.deepEqual(order(registry, 'kernel.response'), ['B@8', 'A@0', 'C@0', 'D@0']);
});

test('a listener with several subscriptions to one phase appears once per priority', (t) => {
  const first = (_exchange: Exchange): void => undefined;
  const second = (_exchange: Exchange): void => undefined;
  const registry = new ListenerRegistry([
    listener('Locale', {
      'kernel.request': [
        { priority: 100, handle: first },
        { priority: 16, handle: second },
      ],
    }),
    listener('Router', { 'kernel.request': { priority: 32, handle: noop } }),
  ]);
  t.deepEqual(order(registry, 'kernel.request'), ['Locale@100', 'Router@32', 'Locale@16']);
  t.is(registry.for('kernel.request')[0]?.handle, first);
  t.is(registry.for('kernel.request')[2]?.handle, second);
});

test('each phase has its own list', (t) => {
  const onRequest = (_exchange: Exchange): void => undefined;
  const onFinish = (_exchange: Exchange): void => undefined;
  const registry = new ListenerRegistry([
    listener('Router', {
      'kernel.request': { priority: 32, handle: onRequest },
      'kernel.finish_request': { priority: 0, handle: onFinish },
    }),
  ]);
  t.deepEqual(registry.for('kernel.request'), [{ name: 'Router', priority: 32, handle: onRequest }]);
  t.deepEqual(registry.for('kernel.finish_request'), [{ name: 'Router', priority: 0, handle: onFinish }]);
});

test('a phase nobody subscribed to has no listeners', (t) => {
  t.deepEqual(new ListenerRegistry([]).for('kernel.request'), []);
  const registry = new ListenerRegistry([listener('Robots', { 'kernel.response': { priority: -255, handle: noop } })]);
  t.deepEqual(registry.for('kernel.terminate'), []);
  t.deepEqual(registry.for('kernel.view'), []);
});
