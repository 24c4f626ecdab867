// Validates real answers against the OpenAPI document: finds the path template, method and status,
// then checks the JSON body with Ajv's JSON Schema 2020-12 validator (the document's dialect), its
// $refs resolved inside the document.
import Ajv2020 from 'ajv/dist/2020';
import type { ValidateFunction } from 'ajv';

type Doc = { paths: { [path: string]: { [method: string]: any } }; components: any };

export class OpenApiValidator {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: false });
  private readonly templates: { re: RegExp; path: string; literal: number }[] = [];
  private readonly compiled = new Map<string, ValidateFunction>();

  constructor(private readonly doc: Doc) {
    this.ajv.addSchema(doc as object, 'openapi.json');
    for (const path of Object.keys(doc.paths)) {
      const re = new RegExp('^' + path.replace(/\{[^}]+\}/g, '[^/]+') + '$');
      this.templates.push({ re, path, literal: path.replace(/\{[^}]+\}/g, '').length });
    }
    // A literal segment wins over a parameter (/api/v1/device/{serial} vs /api/v1/openapi.json).
    this.templates.sort((a, b) => b.literal - a.literal);
  }

  /** The template a concrete path matches, or undefined. */
  template(path: string): string | undefined {
    return this.templates.find((t) => t.re.test(path))?.path;
  }

  /** '' when the answer conforms, else what is wrong. */
  check(method: string, path: string, status: number, body: unknown): string {
    const template = this.template(path);
    if (!template) return `no path in the document matches ${path}`;
    const op = this.doc.paths[template][method.toLowerCase()];
    if (!op) return `${method} ${template} is not in the document`;
    let response = op.responses[String(status)] ?? op.responses.default;
    if (!response) return `${method} ${template}: status ${status} is not documented`;
    let pointer = `#/paths/${escape(template)}/${method.toLowerCase()}/responses/${status}`;
    if (response.$ref) {
      pointer = response.$ref;
      response = this.resolve(response.$ref);
    }
    const json = response.content?.['application/json'];
    if (!json) return body === undefined ? '' : `${method} ${template} ${status}: no JSON body documented`;
    const key = pointer + '/content/application~1json/schema';
    let validate = this.compiled.get(key);
    if (!validate) {
      validate = this.ajv.getSchema('openapi.json' + key)!;
      this.compiled.set(key, validate);
    }
    return validate(body) ? '' : `${method} ${path} ${status}: ${this.ajv.errorsText(validate.errors)}`;
  }

  private resolve(ref: string): any {
    let node: any = this.doc;
    for (const part of ref.slice(2).split('/')) node = node[part.replace(/~1/g, '/').replace(/~0/g, '~')];
    return node;
  }
}

function escape(path: string): string {
  return path.replace(/~/g, '~0').replace(/\//g, '~1');
}
