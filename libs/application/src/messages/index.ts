export * from './engagement';
export * from './link-tracking';
export { chatMarkupOf, isLinkPreviewer, trackChatJson, trackChatText, type ChatMarkup } from './chat-link-tracking';
export * from './preference-links';
export * from './feed-localizer';
