// The page the guide browser test loads: @knocklabs/react's KnockGuideProvider and its Banner
// component, configured from window.__NOTIFY__ (the service's URL, a publishable key, the guide
// channel); the user is `?user=` in the page's address, so one served page shows any user.
import { Banner, KnockGuideProvider, KnockProvider } from '@knocklabs/react';
import '@knocklabs/react/dist/index.css';
import React from 'react';
import { createRoot } from 'react-dom/client';

const h = React.createElement;
const config = window.__NOTIFY__;
const userId = new URLSearchParams(window.location.search).get('user');

function App() {
  return h(
    KnockProvider,
    { apiKey: config.publishableKey, host: config.host, user: { id: userId } },
    h(
      KnockGuideProvider,
      { channelId: config.channelId, readyToTarget: true, listenForUpdates: true },
      h('div', { id: 'banners' }, h(Banner)),
    ),
  );
}

createRoot(document.getElementById('root')).render(h(App));
