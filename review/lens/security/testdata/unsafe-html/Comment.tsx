import DOMPurify from 'dompurify';
import { marked } from 'marked';

export function Comment({ body, title }: { body: string; title: string }) {
  return (
    <article>
      <h2 dangerouslySetInnerHTML={{ __html: title }} /> {/* want "dangerouslySetInnerHTML parses" */}
      <div dangerouslySetInnerHTML={{
        __html: marked(body), // want "Unsanitized HTML"
      }} />
      <div dangerouslySetInnerHTML={{ __html: DOMPurify.sanitize(marked(body)) }} />
      <p dangerouslySetInnerHTML={{ __html: '<b>static</b>' }} />
      <p>{body}</p>
    </article>
  );
}
