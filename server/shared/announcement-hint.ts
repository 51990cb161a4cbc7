/**
 * The announcement bar's behaviour, as an inline script in the page head (the root route adds
 * it to the server's HTML), so the storefront's bundle carries none of it:
 * - pages are one cached document for everyone, so the bar is always in the HTML; before the
 *   first paint a style hides the bar whose text (`data-text`) this browser dismissed, so it
 *   never flashes; a new text from the owner shows again;
 * - one click listener on the document hides the bar when its close button is pressed and
 *   remembers the text in localStorage (it works before hydration too).
 */
export const ANNOUNCEMENT_HINT_SCRIPT = `(function(){var k='announcement-dismissed';try{var d=localStorage.getItem(k);if(d){var s=document.createElement('style');s.textContent='.announcement-bar[data-text="'+CSS.escape(d)+'"]{display:none}';document.head.appendChild(s)}}catch(e){}document.addEventListener('click',function(e){var b=e.target instanceof Element&&e.target.closest('.announcement-bar__close');if(!b)return;var a=b.parentElement;a.hidden=true;try{localStorage.setItem(k,a.getAttribute('data-text'))}catch(e){}})})()`;
