function render(el, comment, list) {
  el.innerHTML = `<p>${comment.body}</p>`; // want "Unsanitized HTML inserted into the page"
  el.outerHTML = '<div>' + comment.author + '</div>'; // want "outerHTML = parses"
  list.insertAdjacentHTML('beforeend', comment.html); // want "insertAdjacentHTML"
  el.innerHTML += comment.footer; // want "innerHTML \+="
  document.write(comment.script); // want "document.write"
}

// Near misses: none of these is reported.
function fine(el, comment, list) {
  el.innerHTML = '';
  el.innerHTML = '<p class="empty">No comments</p>';
  el.innerHTML = DOMPurify.sanitize(comment.body);
  list.insertAdjacentHTML('beforeend', sanitizeHtml(comment.html));
  el.textContent = comment.body;
  const html = el.innerHTML;
  const s = "el.innerHTML = comment.body";
  return [html, s];
}

module.exports = { render, fine };
