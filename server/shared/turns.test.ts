import { describe, expect, it } from 'vitest';
import { ClientGoneError, OverloadedError } from './errors';
import { held } from '../../tests/support/held';
import { createTurns } from './turns';

describe('turns', () => {
  it('runs at most the given number of tasks at once, the others in arrival order as turns free up', async () => {
    const turns = createTurns({ atOnce: 2, maxWaitMs: 10_000, retryAfterSeconds: 5 });
    const gates = [held(), held(), held(), held()];
    const started: number[] = [];
    const finished = gates.map((g, i) =>
      turns.run(async () => {
        started.push(i);
        await g.released;
        return i;
      }),
    );
    await Promise.resolve();
    expect(started).toEqual([0, 1]);
    expect(turns.load).toEqual({ running: 2, waiting: 2 });

    gates[1]!.release();
    expect(await finished[1]).toBe(1);
    expect(started).toEqual([0, 1, 2]);
    expect(turns.load).toEqual({ running: 2, waiting: 1 });

    gates[0]!.release();
    gates[2]!.release();
    gates[3]!.release();
    expect(await Promise.all(finished)).toEqual([0, 1, 2, 3]);
    expect(started).toEqual([0, 1, 2, 3]);
    expect(turns.load).toEqual({ running: 0, waiting: 0 });
  });

  it('frees the turn of a task that fails', async () => {
    const turns = createTurns({ atOnce: 1, maxWaitMs: 10_000, retryAfterSeconds: 5 });
    await expect(turns.run(() => Promise.reject(new Error('refused')))).rejects.toThrow('refused');
    expect(await turns.run(async () => 'next')).toBe('next');
    expect(turns.load).toEqual({ running: 0, waiting: 0 });
  });

  it('refuses a task that waited its longest turn, which then never runs, and keeps the queue behind it', async () => {
    const turns = createTurns({ atOnce: 1, maxWaitMs: 50, retryAfterSeconds: 7 });
    const turn = held();
    const holding = turns.run(() => turn.released);
    let lateRan = false;
    const late = turns.run(async () => {
      lateRan = true;
    });
    const refusal = await late.catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(OverloadedError);
    expect(refusal).toMatchObject({ kind: 'overloaded', retryAfterSeconds: 7, params: { seconds: 7 } });
    expect(turns.load).toEqual({ running: 1, waiting: 0 });

    const queued = turns.run(async () => 'after the refusal');
    turn.release();
    await holding;
    expect(await queued).toBe('after the refusal');
    expect(lateRan).toBe(false);
    expect(turns.load).toEqual({ running: 0, waiting: 0 });
  });

  it('drops a task whose client left while it waited: it never runs, and the turn goes to the next', async () => {
    const turns = createTurns({ atOnce: 1, maxWaitMs: 10_000, retryAfterSeconds: 5 });
    const turn = held();
    const holding = turns.run(() => turn.released);
    const client = new AbortController();
    let leftRan = false;
    const left = turns.run(async () => {
      leftRan = true;
    }, client.signal);
    const next = turns.run(async () => 'the next buyer');
    expect(turns.load).toEqual({ running: 1, waiting: 2 });

    client.abort(new ClientGoneError());
    await expect(left).rejects.toBeInstanceOf(ClientGoneError);
    expect(turns.load).toEqual({ running: 1, waiting: 1 });

    turn.release();
    await holding;
    expect(await next).toBe('the next buyer');
    expect(leftRan).toBe(false);
    expect(turns.load).toEqual({ running: 0, waiting: 0 });
  });

  it('refuses a task whose client has already left without taking a turn, and keeps running a started one', async () => {
    const turns = createTurns({ atOnce: 1, maxWaitMs: 10_000, retryAfterSeconds: 5 });
    const gone = new AbortController();
    gone.abort(new ClientGoneError());
    await expect(turns.run(async () => 'never', gone.signal)).rejects.toBeInstanceOf(ClientGoneError);
    expect(turns.load).toEqual({ running: 0, waiting: 0 });

    // Once running, a task finishes whatever the client does: what it writes is one statement.
    const client = new AbortController();
    const turn = held();
    const running = turns.run(async () => {
      await turn.released;
      return 'placed';
    }, client.signal);
    client.abort(new ClientGoneError());
    turn.release();
    expect(await running).toBe('placed');
    expect(turns.load).toEqual({ running: 0, waiting: 0 });
  });
});
