import { defineMessages } from '../define';

/** Catalogue strings shared by the API and the storefront. */
export const catalogMessages = defineMessages({
  en: {
    'catalog.productNotFound': 'This product does not exist or is no longer sold',
    'catalog.groupNotFound': 'This product group does not exist',
    'validation.priceRange': 'The lowest price cannot be above the highest price',
    'service.fastAfterSale': 'Fast after-sale service',
    'service.sevenDayReturn': '7-day no-reason returns',
    'service.freeShipping': 'Free shipping',
    'field.group_id': 'Product group',
    'field.keyword': 'Search keyword',
    'field.price_min': 'Lowest price',
    'field.price_max': 'Highest price',
    'field.sort': 'Sort order',
  },
  'zh-cn': {
    'catalog.productNotFound': '该商品不存在或已下架',
    'catalog.groupNotFound': '该商品分组不存在',
    'validation.priceRange': '最低价不能高于最高价',
    'service.fastAfterSale': '极速售后',
    'service.sevenDayReturn': '七天无理由退货',
    'service.freeShipping': '全国包邮',
    'field.group_id': '商品分组',
    'field.keyword': '搜索关键词',
    'field.price_min': '最低价',
    'field.price_max': '最高价',
    'field.sort': '排序方式',
  },
});
