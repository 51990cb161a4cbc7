import { defineMessages } from '../define';

/**
 * Texts of the multi-image upload control (app/components/account/image-uploads.tsx), SPEC
 * sections 2, 4 and 5: its per-file states, the retry, the preview and the delete question.
 * The control is only on login-only pages, so these load with the `account` pack, never with
 * the product page's JavaScript.
 */
export const imageUploadMessages = defineMessages({
  en: {
    'imageUploads.add': 'Add images',
    'imageUploads.count': '{count} of {limit} images',
    'imageUploads.item': 'Image {number}',
    'imageUploads.ready': 'Ready to upload',
    'imageUploads.uploading': 'Uploading…',
    'imageUploads.uploaded': 'Uploaded',
    'imageUploads.failed': 'Upload failed',
    'imageUploads.retry': 'Retry upload',
    'imageUploads.preview': 'Preview image {number}',
    'imageUploads.delete': 'Delete image {number}',
    'imageUploads.deleteConfirm': 'Are you sure you want to delete this image?',
    'imageUploads.notice': 'Notice',
    'imageUploads.onlyImages': 'Only image files can be uploaded.',
  },
  'zh-cn': {
    'imageUploads.add': '添加图片',
    'imageUploads.count': '已添加 {count} 张，最多 {limit} 张',
    'imageUploads.item': '第 {number} 张图片',
    'imageUploads.ready': '准备上传',
    'imageUploads.uploading': '上传中…',
    'imageUploads.uploaded': '已上传',
    'imageUploads.failed': '上传失败',
    'imageUploads.retry': '重新上传',
    'imageUploads.preview': '预览第 {number} 张图片',
    'imageUploads.delete': '删除第 {number} 张图片',
    'imageUploads.deleteConfirm': '确定删除这张图片吗?',
    'imageUploads.notice': '提示',
    'imageUploads.onlyImages': '只能上传图片文件。',
  },
});
