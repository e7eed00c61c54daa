import { exportSPKI, generateKeyPair, SignJWT } from 'jose';
import { userTokenOf, verifyUserToken } from './user-tokens';

type Keys = Awaited<ReturnType<typeof generateKeyPair>>;

describe('user tokens', () => {
  let mine: Keys;
  let other: Keys;
  let policy: { enhancedSecurityMode: boolean; signingKeys: { id: string; publicKey: string }[] };
  /** The verifier's clock, fixed: the claims below are relative to it, never to the wall clock. */
  const clock = () => Date.UTC(2026, 0, 1, 12);
  const now = () => Math.floor(clock() / 1000);
  const sign = (keys: Keys, claims: Record<string, unknown>, header: Record<string, unknown> = {}) =>
    new SignJWT(claims).setProtectedHeader({ alg: 'RS256', typ: 'JWT', ...header }).sign(keys.privateKey);
  const code = (p: Promise<unknown>) =>
    p.then(
      () => 'verified',
      (e: { code?: string; message: string }) => `${e.code}: ${e.message}`,
    );

  beforeAll(async () => {
    mine = await generateKeyPair('RS256', { extractable: true });
    other = await generateKeyPair('RS256', { extractable: true });
    policy = {
      enhancedSecurityMode: true,
      signingKeys: [
        { id: '00000000-0000-4000-8000-000000000001', publicKey: await exportSPKI(other.publicKey) },
        { id: '00000000-0000-4000-8000-000000000002', publicKey: await exportSPKI(mine.publicKey) },
      ],
    };
  });

  it('returns the user of a token signed by any active key of the environment', async () => {
    await expect(verifyUserToken(await sign(mine, { sub: 'alice', exp: now() + 60 }), policy, clock)).resolves.toBe('alice');
    await expect(verifyUserToken(await sign(other, { sub: 'bob', exp: now() + 60, iat: now() }), policy, clock)).resolves.toBe('bob');
    // A kid naming a key restricts verification to it.
    await expect(
      verifyUserToken(await sign(mine, { sub: 'alice', exp: now() + 60 }, { kid: policy.signingKeys[1].id }), policy, clock),
    ).resolves.toBe('alice');
    expect(
      await code(verifyUserToken(await sign(mine, { sub: 'alice', exp: now() + 60 }, { kid: policy.signingKeys[0].id }), policy, clock)),
    ).toMatch(/^invalid_user_token/);
  });

  it('refuses expired, unsigned-by-us, claim-less and wrong-type tokens with their codes', async () => {
    const stranger = await generateKeyPair('RS256');
    expect(await code(verifyUserToken(await sign(mine, { sub: 'alice', exp: now() - 60 }), policy, clock))).toMatch(
      /^invalid_user_token: .*expired/,
    );
    expect(await code(verifyUserToken(await sign(stranger, { sub: 'alice', exp: now() + 60 }), policy, clock))).toMatch(
      /^invalid_user_token: .*signature/,
    );
    expect(await code(verifyUserToken(await sign(mine, { sub: 'alice' }), policy, clock))).toMatch(/^invalid_user_token: .*exp/);
    expect(await code(verifyUserToken(await sign(mine, { exp: now() + 60 }), policy, clock))).toMatch(/^invalid_user_token: .*sub/);
    expect(await code(verifyUserToken(await sign(mine, { sub: '', exp: now() + 60 }), policy, clock))).toMatch(/^invalid_user_token/);
    expect(await code(verifyUserToken(await sign(mine, { sub: 'alice', exp: now() + 60, nbf: now() + 600 }), policy, clock))).toMatch(
      /^invalid_user_token/,
    );
    const hs = await new SignJWT({ sub: 'alice', exp: now() + 60 }).setProtectedHeader({ alg: 'HS256' }).sign(new Uint8Array(32));
    expect(await code(verifyUserToken(hs, policy))).toMatch(/^incorrect_token_type/);
    expect(await code(verifyUserToken('pk_test_abcdef', policy))).toMatch(/^incorrect_token_type/);
    expect(await code(verifyUserToken(await sign(mine, { sub: 'alice', exp: now() + 60 }, { typ: 'at+jwt' }), policy, clock))).toMatch(
      /^incorrect_token_type/,
    );
    const [h, p, s] = (await sign(mine, { sub: 'alice', exp: now() + 60 })).split('.');
    expect(await code(verifyUserToken(`${h}.${Buffer.from('{"sub":"bob","exp":9999999999}').toString('base64url')}.${s}`, policy))).toMatch(
      /^invalid_user_token/,
    );
    expect(await code(verifyUserToken(`${h}.${p}`, policy))).toMatch(/^incorrect_token_type/);
  });

  it('needs a signing key to verify anything', async () => {
    expect(
      await code(
        verifyUserToken(await sign(mine, { sub: 'alice', exp: now() + 60 }), { enhancedSecurityMode: true, signingKeys: [] }, clock),
      ),
    ).toMatch(/^missing_jwt_signing_key/);
  });

  it('reads either header name', () => {
    expect(userTokenOf({ 'x-knock-user-token': 'a' })).toBe('a');
    expect(userTokenOf({ 'x-service-user-token': ' b ' })).toBe('b');
    expect(userTokenOf({ 'x-knock-user-token': '' })).toBeUndefined();
    expect(userTokenOf({})).toBeUndefined();
  });
});
