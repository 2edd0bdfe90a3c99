import { html, raw, type SafeHtml } from "./html.ts";
import { csrfField } from "./layout.ts";

/**
 * Uploads through the same-origin API (multipart: the part `file` and the form's other non-empty inputs, the
 * session's CSRF token in X-CSRF-Token), one file after another, by picking or dropping files; then goes to
 * `data-done`, or shows the first refusal (file name and the API's message).
 */
const uploadScript =
  raw(`<script>(function(){var f=document.getElementById("upload");if(!f)return;var z=f.querySelector(".drop"),
i=f.querySelector("input[type=file]"),s=document.getElementById("upload-status");
function extra(d){Array.prototype.forEach.call(f.querySelectorAll("input[name]:not([type=file]):not([name=csrf]),textarea[name]"),function(e){if(e.value)d.append(e.name,e.value)})}
function send(files){if(!files.length)return;s.textContent="Uploading…";s.className="";Array.prototype.reduce.call(files,function(p,file){
return p.then(function(){var d=new FormData();d.append("file",file,file.name);extra(d);
return fetch(f.getAttribute("data-api"),{method:"POST",body:d,headers:{"X-CSRF-Token":f.querySelector("[name=csrf]").value}})
.then(function(res){return res.json().then(function(b){if(!res.ok)throw new Error(file.name+": "+(b.message||res.status))})})})},Promise.resolve())
.then(function(){location.href=f.getAttribute("data-done")},function(e){s.textContent=e.message;s.className="flash error"})}
f.addEventListener("submit",function(e){e.preventDefault();send(i.files)});
z.addEventListener("dragover",function(e){e.preventDefault();z.classList.add("over")});z.addEventListener("dragleave",function(){z.classList.remove("over")});
z.addEventListener("drop",function(e){e.preventDefault();z.classList.remove("over");send(e.dataTransfer.files)})})();</script>`);

/**
 * The upload form of a dashboard section: a drop zone with a file picker (`accept` narrows it), `fields` sent
 * with every file, and the script that posts each file to `api` and then opens `done`.
 */
export function uploadForm(o: {
  api: string;
  done: string;
  csrf: string;
  accept?: string;
  fields?: SafeHtml;
}): SafeHtml {
  return html`<form id="upload" data-api="${o.api}" data-done="${o.done}">${csrfField(o.csrf)}
<div class="drop"><p>Drop files here, or choose them</p><input type="file" name="file" multiple aria-label="Files"${o.accept ? html` accept="${o.accept}"` : ""}></div>
${o.fields ?? ""}
<div class="form-actions"><button type="submit" class="primary">Upload</button><span id="upload-status" role="status"></span></div></form>${uploadScript}`;
}
