import { defineMessages } from '../define';

export const productPageMessages = defineMessages({
  en: {},
  'zh-cn': {},
});
