import { AppShell, Badge, Burger, Button, Center, Group, Loader, NavLink, Select, Text, Title, VisuallyHidden } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { Api, clearSession, entriesOf, loadSession, saveSession, Session } from './api';
import { href, useRoute } from './router';
import { EventLogScreen } from './screens/EventLog';
import { Login, resumeMemberSession } from './screens/Login';
import { MessagesScreen } from './screens/Messages';
import { RecipientsScreen } from './screens/Recipients';
import { RunsScreen } from './screens/Runs';
import { SettingsScreen } from './screens/Settings';
import { WorkflowsScreen } from './screens/Workflows';
import { ConsoleProvider, useConsole } from './session';
import { useLoad } from './ui';

const SCREENS = [
  { screen: 'workflows', label: 'Workflows' },
  { screen: 'runs', label: 'Runs' },
  { screen: 'messages', label: 'Messages' },
  { screen: 'recipients', label: 'Recipients' },
  { screen: 'events', label: 'Event log' },
  { screen: 'settings', label: 'Settings' },
] as const;

export function App() {
  const route = useRoute();
  const loginToken = route.screen === 'login' ? route.id : undefined;
  const [session, setSession] = useState<Session | null>(() => (loginToken ? null : loadSession()));
  // No session in this tab: a member's cookie may still hold one (a reload, a new tab).
  const [resuming, setResuming] = useState(() => !session && !loginToken);
  useEffect(() => {
    if (!resuming) return;
    void resumeMemberSession().then((s) => {
      if (s) {
        saveSession(s);
        setSession(s);
      }
      setResuming(false);
    });
  }, [resuming]);
  const credential = session ? (session.kind === 'token' ? session.token : null) : undefined;
  const api = useMemo(() => (credential === undefined ? null : new Api(credential)), [credential]);
  const onEnvironment = useCallback((environment: string) => {
    setSession((s) => {
      if (!s) return s;
      const next = { ...s, environment };
      saveSession(next);
      return next;
    });
  }, []);
  const onSignOut = useCallback(() => {
    const signedOut = () => {
      clearSession();
      setSession(null);
    };
    // A member's cookie is httpOnly: only the server can clear it. The sign-in form shows once it
    // has (or could not be reached), so that a tab closed right after signing out leaves no session.
    if (session?.kind === 'member')
      void new Api(null)
        .service('DELETE', '/v1/console/session')
        .catch(() => undefined)
        .then(signedOut);
    else signedOut();
  }, [session?.kind]);
  if (resuming)
    return (
      <Center mih="100vh">
        <Loader aria-label="Loading" />
      </Center>
    );
  if (!session || !api)
    return (
      <Login
        loginToken={loginToken}
        onSignedIn={(s) => {
          saveSession(s);
          setSession(s);
          if (loginToken) window.location.hash = '#/workflows';
        }}
      />
    );
  return (
    <ConsoleProvider session={session} api={api} onEnvironment={onEnvironment} onSignOut={onSignOut}>
      <Shell />
    </ConsoleProvider>
  );
}

function EnvironmentSwitcher() {
  const { api, environment, setEnvironment } = useConsole();
  const environments = useLoad(
    (signal) => api.service<{ entries: { slug: string; name: string }[] }>('GET', '/v1/environments', { signal }),
    [api],
  );
  const data = (environments.data ? entriesOf(environments.data) : [{ slug: environment, name: environment }]).map((e) => ({
    value: e.slug,
    label: !e.name || e.name.toLowerCase() === e.slug.toLowerCase() ? e.name || e.slug : `${e.name} (${e.slug})`,
  }));
  return (
    <Select
      label="Environment"
      size="xs"
      w={260}
      data={data}
      value={environment}
      allowDeselect={false}
      onChange={(v) => v && setEnvironment(v)}
      styles={{ root: { display: 'flex', alignItems: 'center', gap: 8 } }}
    />
  );
}

function Shell() {
  const route = useRoute();
  const { signOut, environment, who, role } = useConsole();
  const [opened, { toggle }] = useDisclosure();
  const current = SCREENS.find((s) => s.screen === route.screen) ?? SCREENS[0];
  return (
    <AppShell header={{ height: 56 }} navbar={{ width: 200, breakpoint: 'sm', collapsed: { mobile: !opened } }} padding="md">
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm">
            <Burger opened={opened} onClick={toggle} hiddenFrom="sm" size="sm" aria-label="Toggle navigation" />
            <Title order={1} size="h4">
              Notify console
            </Title>
          </Group>
          <Group gap="md" wrap="nowrap">
            <EnvironmentSwitcher />
            <Text size="xs" title={`Signed in as ${who}`}>
              {who}{' '}
              <Badge size="xs" variant="light" color={role === 'viewer' ? 'gray' : role === 'editor' ? 'blue' : 'grape'}>
                {role}
              </Badge>
            </Text>
            <Button variant="subtle" size="xs" onClick={signOut}>
              Sign out
            </Button>
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="xs" component="nav" aria-label="Screens">
        {SCREENS.map((s) => (
          <NavLink
            key={s.screen}
            href={href(s.screen)}
            label={s.label}
            active={s.screen === current.screen}
            aria-current={s.screen === current.screen ? 'page' : undefined}
          />
        ))}
        <Text size="xs" c="dimmed" mt="auto" p="xs">
          Environment: {environment}
        </Text>
      </AppShell.Navbar>
      <AppShell.Main>
        <VisuallyHidden role="status" aria-live="polite">
          {current.label}
        </VisuallyHidden>
        <Screen key={`${current.screen}:${environment}`} screen={current.screen} id={route.id} params={route.params} />
      </AppShell.Main>
    </AppShell>
  );
}

function Screen({ screen, id, params }: { screen: string; id?: string; params: URLSearchParams }) {
  switch (screen) {
    case 'runs':
      return <RunsScreen id={id} params={params} />;
    case 'messages':
      return <MessagesScreen id={id} params={params} />;
    case 'recipients':
      return <RecipientsScreen id={id} params={params} />;
    case 'events':
      return <EventLogScreen params={params} />;
    case 'settings':
      return <SettingsScreen />;
    default:
      return <WorkflowsScreen id={id} />;
  }
}
