import { defineMessages } from '../define';

/** The storefront's catalogue on every page: prices, the currency picker and the header search box (listings are in browse.ts). */
export const listingMessages = defineMessages({
  en: {
    'price.approximately': 'approximately',
    'price.approxTitle': 'Approximate price in {code}. You will be charged {amount} ({settlement}) at checkout.',
    'currency.label': 'Currency',
    'currency.apply': 'Apply',
    'currency.name.CNY': 'Chinese yuan',
    'currency.name.USD': 'US dollar',
    'currency.name.EUR': 'Euro',
    'currency.name.JPY': 'Japanese yen',
    'currency.name.GBP': 'British pound',
    'currency.changed': 'Prices are now shown in {currency}.',
    'search.label': 'Search products',
    'search.placeholder': 'Search products',
    'search.submit': 'Search',
    'search.open': 'Search',
    'search.close': 'Close search',
  },
  'zh-cn': {
    'price.approximately': '约',
    'price.approxTitle': '此为{currency}参考价，结算时将按 {amount}（{settlement}）收取。',
    'currency.label': '货币',
    'currency.apply': '应用',
    'currency.name.CNY': '人民币',
    'currency.name.USD': '美元',
    'currency.name.EUR': '欧元',
    'currency.name.JPY': '日元',
    'currency.name.GBP': '英镑',
    'currency.changed': '价格已切换为{currency}显示。',
    'search.label': '搜索商品',
    'search.placeholder': '搜索商品',
    'search.submit': '搜索',
    'search.open': '搜索',
    'search.close': '关闭搜索',
  },
});
