import { defineMessages } from '../define';

export const listingMessages = defineMessages({
  en: {},
  'zh-cn': {},
});
