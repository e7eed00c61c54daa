import { Button, Center, Divider, Loader, Paper, PasswordInput, Stack, Text, Title } from '@mantine/core';
import { FormEvent, useEffect, useState } from 'react';
import { Api, entriesOf, MemberSession, Session } from '../api';
import { ErrorAlert } from '../ui';

async function firstEnvironment(api: Api): Promise<string> {
  const environments = entriesOf(await api.service<{ entries: { slug: string }[] }>('GET', '/v1/environments'));
  return environments[0]?.slug ?? 'development';
}

/** A member's one-time login link (`#/login/<token>`, from `notify console login-link`) for a session cookie (ADR 0210). */
async function redeem(loginToken: string): Promise<Session> {
  const api = new Api(null);
  const member = await api.service<MemberSession>('POST', '/v1/console/session', { body: { login_token: loginToken } });
  return { kind: 'member', member, environment: await firstEnvironment(api) };
}

/** The session cookie a reload keeps (the page cannot read it: it asks the server). */
export async function resumeMemberSession(): Promise<Session | null> {
  const api = new Api(null);
  try {
    const member = await api.service<MemberSession>('GET', '/v1/console/session');
    return { kind: 'member', member, environment: await firstEnvironment(api) };
  } catch {
    return null;
  }
}

/**
 * Sign in: a member opens the one-time link the CLI printed (redeemed here), or an operator types
 * a management service token (checked with GET /v1/whoami).
 */
export function Login({ loginToken, onSignedIn }: { loginToken?: string; onSignedIn(session: Session): void }) {
  const [token, setToken] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (!loginToken) return;
    setBusy(true);
    // The link is used once: take it out of the address bar and history whatever happens.
    history.replaceState(null, '', `${location.pathname}${location.search}#/`);
    redeem(loginToken)
      .then(onSignedIn, setError)
      .finally(() => setBusy(false));
  }, [loginToken]);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const api = new Api(token.trim());
      await api.service('GET', '/v1/whoami');
      onSignedIn({ kind: 'token', token: token.trim(), environment: await firstEnvironment(api) });
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Center mih="100vh" bg="gray.0">
      <Paper component="main" withBorder shadow="sm" p="xl" w={440}>
        <Stack>
          <Title order={1} size="h3">
            Notify console
          </Title>
          {loginToken && busy ? (
            <Text size="sm" role="status">
              <Loader size="xs" mr="xs" />
              Signing in with your login link…
            </Text>
          ) : (
            <Text size="sm" c="dimmed">
              Members sign in with a one-time link: ask an operator to run <code>notify console login-link &lt;your email&gt;</code> and
              open the link it prints.
            </Text>
          )}
          <ErrorAlert error={error} title="Sign-in failed" />
          <Divider label="or with a service token" labelPosition="center" />
          <form onSubmit={submit} aria-label="Sign in">
            <Stack>
              <Text size="sm" c="dimmed">
                The management API token printed at the first start, or made with <code>notify service-tokens create</code>. It is kept in
                this tab only.
              </Text>
              <PasswordInput
                label="Service token"
                required
                autoFocus={!loginToken}
                autoComplete="off"
                value={token}
                onChange={(e) => setToken(e.currentTarget.value)}
              />
              <Button type="submit" loading={busy && !loginToken} disabled={!token.trim()}>
                Sign in
              </Button>
            </Stack>
          </form>
        </Stack>
      </Paper>
    </Center>
  );
}
