import { defineMessages } from '../define';

/** What the console's image upload answers (server/http/routes/admin-media.routes.ts), and the blob store's refusal. */
export const adminMediaMessages = defineMessages({
  en: {
    'adminMedia.missing': 'Choose one or more images to upload',
    'adminMedia.tooMany': 'Upload at most {limit} images at once',
    'adminMedia.notImage': '{name} is not an image this shop can use (JPEG, PNG, WebP, AVIF or GIF)',
    'adminMedia.tooLarge': '{name} is too large: an image may be at most {limit}',
    'adminMedia.tooManyPixels': '{name} has too many pixels (at most {limit} megapixels)',
    'media.storageRefused':
      'The file store refused to save this, so nothing was saved. Please try again later; the error has been logged for the shop.',
  },
  'zh-cn': {
    'adminMedia.missing': '请选择要上传的图片（可多选）',
    'adminMedia.tooMany': '一次最多上传 {limit} 张图片',
    'adminMedia.notImage': '{name} 不是可用的图片（支持 JPEG、PNG、WebP、AVIF、GIF）',
    'adminMedia.tooLarge': '{name} 过大：单张图片最大 {limit}',
    'adminMedia.tooManyPixels': '{name} 像素过多（最多 {limit} 百万像素）',
    'media.storageRefused': '文件存储拒绝保存，因此没有保存任何内容。请稍后再试；此错误已记录并告知店铺。',
  },
});
