// A component is any module exporting a function that returns JSX. Import it with a relative
// path (the extension is optional): import Hero from "../components/Hero.tsx". Props are typed
// with an interface.
import type { ComponentChildren } from "preact";

interface HeroProps {
  eyebrow?: string;
  title: string;
  children?: ComponentChildren;
  primary?: { href: string; label: string };
  secondary?: { href: string; label: string };
}

export default function Hero({ eyebrow, title, children, primary, secondary }: HeroProps) {
  return (
    <section class="hero">
      <div class="container">
        <div class="hero-inner">
          {eyebrow && <p class="eyebrow">{eyebrow}</p>}
          <h1>{title}</h1>
          <div class="lead">{children}</div>
          <div class="actions">
            {primary && (
              <a class="button" href={primary.href}>
                {primary.label}
              </a>
            )}
            {secondary && (
              <a class="button button-ghost" href={secondary.href}>
                {secondary.label}
              </a>
            )}
          </div>
        </div>
      </div>
    </section>
  );
}
