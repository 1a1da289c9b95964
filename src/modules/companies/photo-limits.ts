/** Bounds of the photo gallery, apart from photo.ts so that schemas can use them without loading the image library. */
export const PHOTO_MAX_BYTES = 8 * 1024 * 1024;
export const PHOTO_MAX_INPUT_PX = 8000;
export const PHOTO_OUTPUT_PX = 1600;
/** Photos in one company's gallery. */
export const PHOTO_MAX_COUNT = 12;
export const PHOTO_CAPTION_MAX = 200;
