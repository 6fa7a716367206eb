import { RenderPlayground } from '../features/playground/RenderPlayground.tsx';
import { Link } from 'react-router-dom';
import { useDocumentTitle } from '../hooks/useDocumentTitle.ts';
import { useAppStore } from '../state/store.ts';

const STEPS = [
  {
    title: 'Design once',
    text: 'A photo plus text snippets with merge fields like {{first_name}}.',
  },
  { title: 'Copy the render URL', text: 'Paste it into an e-mail, a web page or a video player.' },
  {
    title: 'Every recipient sees their image',
    text: 'Drawn for their values in milliseconds, then cached.',
  },
] as const;

export function HomePage() {
  useDocumentTitle();
  const user = useAppStore((s) => s.user);
  return (
    <div className="container stack-lg">
      <section className="hero" aria-labelledby="hero-title">
        <p className="eyebrow">Personalised images</p>
        <h1 id="hero-title" className="hero__title">
          One design. A picture for every recipient.
        </h1>
        <p className="hero__lead">
          PicSnippets lets your team design an image once and gives you a render URL. Put it in your
          campaign, and each recipient sees the image drawn with their own name and details.
        </p>
        <ol className="steps">
          {STEPS.map((step, i) => (
            <li key={step.title} className="steps__item">
              <span className="steps__number" aria-hidden="true">
                {i + 1}
              </span>
              <span>
                <strong>{step.title}</strong>
                <span className="steps__text">{step.text}</span>
              </span>
            </li>
          ))}
        </ol>
        <div className="form-actions">
          {user ? (
            <Link to="/dashboard" className="button">
              Go to your dashboard
            </Link>
          ) : (
            <Link to="/register" className="button">
              Create your account
            </Link>
          )}
        </div>
      </section>
      <RenderPlayground />
    </div>
  );
}
