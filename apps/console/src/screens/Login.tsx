import { Button, Center, Paper, PasswordInput, Stack, Text, Title } from '@mantine/core';
import { FormEvent, useState } from 'react';
import { Api, entriesOf, Session } from '../api';
import { ErrorAlert } from '../ui';

/** Sign in with a management service token: checked with GET /v1/whoami, then the first environment is chosen. */
export function Login({ onSignedIn }: { onSignedIn(session: Session): void }) {
  const [token, setToken] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const api = new Api(token.trim());
      await api.service('GET', '/v1/whoami');
      const environments = entriesOf(await api.service<{ entries: { slug: string }[] }>('GET', '/v1/environments'));
      onSignedIn({ token: token.trim(), environment: environments[0]?.slug ?? 'development' });
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Center mih="100vh" bg="gray.0">
      <Paper component="main" withBorder shadow="sm" p="xl" w={420}>
        <form onSubmit={submit} aria-label="Sign in">
          <Stack>
            <Title order={1} size="h3">
              Notify console
            </Title>
            <Text size="sm" c="dimmed">
              Sign in with a service token (the management API token printed at the first start, or made with{' '}
              <code>notify service-tokens create</code>). It is kept in this tab only.
            </Text>
            <PasswordInput
              label="Service token"
              required
              autoFocus
              autoComplete="off"
              value={token}
              onChange={(e) => setToken(e.currentTarget.value)}
            />
            <ErrorAlert error={error} title="Sign-in failed" />
            <Button type="submit" loading={busy} disabled={!token.trim()}>
              Sign in
            </Button>
          </Stack>
        </form>
      </Paper>
    </Center>
  );
}
