import DefaultTheme from 'vitepress/theme';
import type { Theme } from 'vitepress';
import BenchCharts from './BenchCharts.vue';
import BenchFigure from './BenchFigure.vue';
import SizeTable from './SizeTable.vue';

export default {
  extends: DefaultTheme,
  enhanceApp({ app }) {
    // The generated figures, usable in every page (docs/reference/benchmarks.md, the concepts' prose).
    app.component('BenchCharts', BenchCharts);
    app.component('BenchFigure', BenchFigure);
    app.component('SizeTable', SizeTable);
  },
} satisfies Theme;
