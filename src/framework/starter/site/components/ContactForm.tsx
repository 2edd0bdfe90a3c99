// Forms are plain HTML. One that posts to /_service/forms/<name> is received by the platform:
// the build records its name ("contact") and its fields (name, email, message), and submissions
// are stored for the site's owner. Give every field a name attribute.
export default function ContactForm() {
  return (
    <form class="form" action="/_service/forms/contact" method="post">
      <div class="field">
        <label for="name">Name</label>
        <input id="name" name="name" type="text" autocomplete="name" required />
      </div>
      <div class="field">
        <label for="email">Email</label>
        <input id="email" name="email" type="email" autocomplete="email" required />
      </div>
      <div class="field">
        <label for="message">Message</label>
        <textarea id="message" name="message" rows={5} required />
      </div>
      <button class="button" type="submit">
        Send message
      </button>
    </form>
  );
}
