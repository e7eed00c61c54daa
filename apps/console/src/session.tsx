import { createContext, ReactNode, useContext, useMemo } from 'react';
import { Api, ConsoleRole, Session } from './api';

export interface ConsoleContext {
  api: Api;
  environment: string;
  /** What the server lets this sign-in do (a service token can do everything): screens grey out what it refuses. */
  role: ConsoleRole;
  /** Who is signed in: the member's email, or "service token". */
  who: string;
  setEnvironment(slug: string): void;
  signOut(): void;
}

const Context = createContext<ConsoleContext | null>(null);

export function ConsoleProvider(props: {
  session: Session;
  api: Api;
  onEnvironment(slug: string): void;
  onSignOut(): void;
  children: ReactNode;
}) {
  const { session, api, onEnvironment, onSignOut } = props;
  const value = useMemo<ConsoleContext>(
    () => ({
      api,
      environment: session.environment,
      role: session.kind === 'member' ? session.member.console_role : 'admin',
      who: session.kind === 'member' ? session.member.member.email : 'service token',
      setEnvironment: onEnvironment,
      signOut: onSignOut,
    }),
    [api, session, onEnvironment, onSignOut],
  );
  return <Context.Provider value={value}>{props.children}</Context.Provider>;
}

export function useConsole(): ConsoleContext {
  const value = useContext(Context);
  if (!value) throw new Error('useConsole outside ConsoleProvider');
  return value;
}
