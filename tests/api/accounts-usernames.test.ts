import { eq, inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { users } from '../../server/db/schema';
import { backfillUsernameKeys } from '../../server/domains/customers/accounts.service';
import { hashPassword } from '../../server/domains/customers/passwords';
import {
  ACCOUNT_TEST_ENV,
  authHeaders,
  loginRequest,
  registerRequest,
  registerUser,
  uniqueEmail,
} from '../support/accounts';
import { useTestApp } from '../support/test-server';

const server = useTestApp(ACCOUNT_TEST_ENV);

async function registerAs(username: string, lang = 'en') {
  return registerRequest(server, { username }, { lang });
}

describe('one name however it is written', () => {
  it('treats case and fullwidth forms as the same name', async () => {
    expect((await registerAs('Alice')).status).toBe(200);
    for (const variant of ['alice', 'ALICE', 'ＡＬＩＣＥ', ' alice ']) {
      const response = await registerAs(variant);
      expect(response.status).toBe(409);
      expect(response.body).toEqual({ code: 409, msg: 'This username is already taken', data: null });
    }
    expect((await registerAs('ａｌｉｃｅ', 'zh-cn')).body).toEqual({ code: 409, msg: '该用户名已被占用', data: null });
  });

  it('folds case fully: Straße and STRASSE are one name', async () => {
    expect((await registerAs('Straße')).status).toBe(200);
    expect((await registerAs('STRASSE')).status).toBe(409);
  });

  it('refuses a name that mixes Latin and Cyrillic letters, in both languages', async () => {
    // The second letter is CYRILLIC SMALL LETTER A.
    const spoof = 'p\u0430ypal';
    expect((await registerAs(spoof)).body).toEqual({
      code: 400,
      msg: 'A username cannot mix letters of different alphabets (such as Latin and Cyrillic)',
      data: null,
    });
    expect((await registerAs(spoof, 'zh-cn')).body).toEqual({
      code: 400,
      msg: '用户名不能混用不同字母体系的字母（如拉丁字母与西里尔字母）',
      data: null,
    });
  });

  it('refuses a name that looks like a taken one', async () => {
    expect((await registerAs('Ivan')).status).toBe(200);
    const lookalike = await registerAs('lvan');
    expect(lookalike.status).toBe(409);
    expect(lookalike.body.msg).toBe('This username looks too much like one already taken. Please choose another');
    expect((await registerAs('lvan', 'zh-cn')).body.msg).toBe('该用户名与已有用户名过于相似，请换一个');

    expect((await registerAs('coco')).status).toBe(200);
    // All Cyrillic (ES and O), so not mixed, but the same picture as the Latin name.
    expect((await registerAs('\u0441\u043e\u0441\u043e')).body.code).toBe(409);
  });

  it('keeps Chinese and Japanese names, alone or with Latin letters and digits', async () => {
    for (const name of ['张三', '张三123', '李雷Lee', 'たなか', 'タナカ太郎', '王_小明']) {
      const response = await registerAs(name);
      expect({ name, code: response.body.code }).toEqual({ name, code: 200 });
    }
  });

  it('applies the same rules to a rename', async () => {
    expect((await registerAs('Mallory')).status).toBe(200);
    const user = await registerUser(server);
    const rename = (username: string) =>
      server.request('/v1/user/info', {
        method: 'PUT',
        body: { username },
        headers: authHeaders(user, { lang: 'en' }),
      });
    expect((await rename('MALLORY')).body.msg).toBe('This username is already taken');
    expect((await rename('MaIIory')).body.msg).toBe(
      'This username looks too much like one already taken. Please choose another',
    );
    expect((await rename('M\u0430llory')).body.code).toBe(400);
    // Changing only the case of one's own name is allowed.
    expect((await rename(user.username.toUpperCase())).body.code).toBe(200);
  });
});

describe('accounts made before the username keys', () => {
  it('get their keys at start; look-alike pairs both keep their names and sign-ins, and block the name for others', async () => {
    const passwordHash = await hashPassword('legacy password 1');
    const rows = await server.ctx.db
      .insert(users)
      .values([
        { email: uniqueEmail('legacy'), username: 'Legacy', passwordHash },
        { email: uniqueEmail('legacy'), username: 'legacy', passwordHash },
      ])
      .returning();
    expect(rows.map((row) => row.usernameKey)).toEqual([null, null]);

    expect(await backfillUsernameKeys(server.ctx)).toBe(2);
    const filled = await server.ctx.db
      .select()
      .from(users)
      .where(
        inArray(
          users.id,
          rows.map((row) => row.id),
        ),
      )
      .orderBy(users.id);
    expect(filled.map((row) => [row.username, row.usernameKey, row.usernameSkeleton])).toEqual([
      ['Legacy', 'legacy', 'legacy'],
      ['legacy', `legacy#${rows[1]!.id}`, `legacy#${rows[1]!.id}`],
    ]);
    expect(await backfillUsernameKeys(server.ctx)).toBe(0);

    for (const row of rows)
      expect((await loginRequest(server, row.email, 'legacy password 1')).body.data.user.username).toBe(row.username);
    expect((await registerAs('LEGACY')).status).toBe(409);
    const [first] = await server.ctx.db.select().from(users).where(eq(users.id, rows[0]!.id));
    expect(first?.username).toBe('Legacy');
  });
});
