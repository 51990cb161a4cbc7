/**
 * SPEC section 7: the operator's analytics snippet is appended to the page head on the
 * client. Scripts inserted with innerHTML never run, so each one is re-created. The code
 * travels as JSON with '<' escaped, so it can never close the carrying script tag.
 */
export function analyticsBootstrap(code: string): string {
  const payload = JSON.stringify(code).replace(/</g, '\\u003c');
  return `(function(){var t=document.createElement('template');t.innerHTML=${payload};Array.prototype.forEach.call(t.content.childNodes,function(n){if(n.nodeName==='SCRIPT'){var s=document.createElement('script');Array.prototype.forEach.call(n.attributes,function(a){s.setAttribute(a.name,a.value)});s.text=n.textContent;document.head.appendChild(s)}else{document.head.appendChild(n.cloneNode(true))}})})();`;
}
