import { createContext, ReactNode, useContext, useMemo } from 'react';
import { Api, Session } from './api';

export interface ConsoleContext {
  api: Api;
  environment: string;
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
    () => ({ api, environment: session.environment, setEnvironment: onEnvironment, signOut: onSignOut }),
    [api, session.environment, onEnvironment, onSignOut],
  );
  return <Context.Provider value={value}>{props.children}</Context.Provider>;
}

export function useConsole(): ConsoleContext {
  const value = useContext(Context);
  if (!value) throw new Error('useConsole outside ConsoleProvider');
  return value;
}
